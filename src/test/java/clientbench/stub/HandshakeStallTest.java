package clientbench.stub;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.net.SocketTimeoutException;
import java.security.KeyStore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The front relays the stub's handshake faithfully, only slowly: paced a byte a millisecond a handshake completes, each
 * byte of it counted; stalled, a client's handshake read times out with nothing sent back, its ClientHello counted.
 */
@Timeout(60)
class HandshakeStallTest {

    @Test
    void aTrickledHandshakeCompletesByteForByteAndAStalledOneNeverAnswers() throws Exception {
        try (StubServer stub = StubServer.start(StubOptions.loopback().withTls(true));
             HandshakeStall trickle = HandshakeStall.trickle(stub.uri(), 1);
             HandshakeStall stall = HandshakeStall.stall()) {
            javax.net.SocketFactory sockets = trusting(stub).getSocketFactory();
            try (SSLSocket s = (SSLSocket) sockets.createSocket("127.0.0.1", trickle.uri().getPort())) {
                s.setSoTimeout(10_000);
                s.startHandshake();
                assertTrue(s.getSession().isValid(), "every byte arrived as the stub sent it");
            }
            HandshakeStall.Counts relayed = trickle.counts();
            assertEquals(1, relayed.connections());
            assertEquals(1, relayed.helloes());
            assertTrue(relayed.bytesTrickled() > 500, "the stub's first flight, a byte at a time: " + relayed);

            try (SSLSocket s = (SSLSocket) sockets.createSocket("127.0.0.1", stall.uri().getPort())) {
                s.setSoTimeout(300);
                assertThrows(SocketTimeoutException.class, s::startHandshake);
            }
            assertEquals(new HandshakeStall.Counts(1, 1, 0), stall.counts());
        }
    }

    private static SSLContext trusting(StubServer stub) throws Exception {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        ks.setCertificateEntry("stub", stub.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }
}
