package clientbench.stub;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A bare socket speaking HTTP/1.1 by hand, so tests see exactly the bytes the stub sends. */
final class RawHttp implements AutoCloseable {
    final Socket socket;
    private final InputStream in;

    RawHttp(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        socket.setSoTimeout(5_000);
        in = socket.getInputStream();
    }

    RawHttp send(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return this;
    }

    static String get(String pathAndQuery) {
        return "GET " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
    }

    /** Reads one response with a content-length body. */
    Response read() throws IOException {
        String head = readHead();
        int status = Integer.parseInt(head.substring(9, 12));
        long length = 0;
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Long.parseLong(line.substring(15).trim());
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        while (body.size() < length) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, length - body.size()));
            if (n < 0) {
                throw new IOException("EOF after " + body.size() + " of " + length + " body bytes");
            }
            body.write(buf, 0, n);
        }
        return new Response(status, head, body.toByteArray());
    }

    /** -1 when the server closed the connection cleanly; throws when it reset it. */
    int readByte() throws IOException {
        return in.read();
    }

    String readHead() throws IOException {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < 4 || sb.lastIndexOf("\r\n\r\n") != sb.length() - 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("EOF in response head after: " + sb);
            }
            sb.append((char) b);
        }
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    record Response(int status, String head, byte[] body) {
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }
}
