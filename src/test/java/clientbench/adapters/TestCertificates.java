package clientbench.adapters;

import java.io.IOException;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Server certificates for TLS verification tests, made with BouncyCastle (already in the build for the stub):
 * self-signed, naming one DNS host in subjectAltName (no CN fallback: OkHttp ignores the CN), for server
 * authentication.
 */
final class TestCertificates {

    /** The password of the committed key and trust stores. */
    static final String PASSWORD = "changeit";
    /**
     * The committed trust store, holding {@link #trusted()}'s certificate alone: Surefire's JVMs take it as their
     * default trust (pom.xml's argLine), so that a client's default verification runs in the test's own JVM.
     */
    static final String TRUST_STORE = "clientbench/adapters/tls-trust.p12";

    record Issued(PrivateKey key, X509Certificate certificate) {
    }

    private TestCertificates() {
    }

    /**
     * The committed key and self-signed certificate for localhost (subjectAltName, server authentication; valid to
     * 2126), made with keytool -genkeypair; {@link #TRUST_STORE} holds its certificate.
     */
    static Issued trusted() throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (var in = TestCertificates.class.getResourceAsStream("tls-trusted.p12")) {
            if (in == null) {
                throw new IOException("tls-trusted.p12 is not on the test classpath, beside " + TRUST_STORE);
            }
            store.load(in, PASSWORD.toCharArray());
        }
        return new Issued((PrivateKey) store.getKey("trusted", PASSWORD.toCharArray()),
                (X509Certificate) store.getCertificate("trusted"));
    }

    /** A key pair and a self-signed certificate for {@code dnsName}, valid from a day ago for a day. */
    static Issued selfSigned(String dnsName) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        X500Name subject = new X500Name("CN=" + dnsName + ", O=clientbench test");
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject,
                BigInteger.valueOf(now.toEpochMilli()).add(BigInteger.valueOf(System.nanoTime() & 0xffff)),
                Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(1))), subject, pair.getPublic());
        builder.addExtension(Extension.subjectAlternativeName, false,
                new GeneralNames(new GeneralName(GeneralName.dNSName, dnsName)));
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
        X509Certificate certificate = new JcaX509CertificateConverter()
                .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate())));
        return new Issued(pair.getPrivate(), certificate);
    }
}
