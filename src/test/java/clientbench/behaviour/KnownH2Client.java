package clientbench.behaviour;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.testkit.H2Frames;
import clientbench.testkit.H2Frames.Frame;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static clientbench.testkit.H2Frames.DATA;
import static clientbench.testkit.H2Frames.END_HEADERS;
import static clientbench.testkit.H2Frames.END_STREAM;
import static clientbench.testkit.H2Frames.GOAWAY;
import static clientbench.testkit.H2Frames.HEADERS;
import static clientbench.testkit.H2Frames.MAX_CONCURRENT_STREAMS;
import static clientbench.testkit.H2Frames.PREFACE;
import static clientbench.testkit.H2Frames.RST_STREAM;
import static clientbench.testkit.H2Frames.SETTINGS;

/**
 * An h2c client (prior knowledge) over plain sockets whose habits are knobs, and which counts what it did, so that the
 * HTTP/2 cases' figures are checked against a client's own counts. GETs only; a response's status is read from its
 * first header byte (the stub sends 200 indexed); one connection at a time, a new one once the server sent a GOAWAY.
 */
final class KnownH2Client implements HttpClientAdapter {

    /**
     * @param queueAtLimit keep to the server's SETTINGS_MAX_CONCURRENT_STREAMS; else send past it (the server refuses)
     * @param resendRefused a stream a GOAWAY refused is sent again on a new connection; else it fails
     */
    record Knobs(boolean queueAtLimit, boolean resendRefused) {
    }


    final AtomicInteger connects = new AtomicInteger();
    final AtomicInteger goAways = new AtomicInteger();
    /** Streams the server reset (REFUSED_STREAM past its limit, or any other): failed, never sent again. */
    final AtomicInteger resets = new AtomicInteger();
    /** Streams a GOAWAY refused: sent again, or failed, as the knob says. */
    final AtomicInteger refusedByGoAway = new AtomicInteger();
    /** The most streams open at once on one connection. */
    final AtomicInteger peakStreams = new AtomicInteger();
    /** Requests reported as anything but a response: what the client's callers saw fail. */
    final AtomicInteger failed = new AtomicInteger();

    private final AdapterConfig config;
    private final Knobs knobs;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final List<Connection> all = new CopyOnWriteArrayList<>();
    private Connection current;

    KnownH2Client(AdapterConfig config, Knobs knobs) {
        if (config.protocol() != clientbench.api.Protocol.H2C) {
            throw new IllegalArgumentException("known-h2: h2c only; protocol " + config.protocol().label() + " refused");
        }
        this.config = config;
        this.knobs = knobs;
    }

    /** Why a stream ended without an answer: a GOAWAY refused it (safe to send again) or the server reset it. */
    private static final class Refused extends IOException {
        final boolean byGoAway;

        Refused(String why, boolean byGoAway) {
            super(why);
            this.byGoAway = byGoAway;
        }
    }

    @Override
    public void send(Request request, Completion completion) {
        long deadline = System.nanoTime() + config.requestTimeout().toNanos();
        threads.execute(() -> {
            Outcome outcome;
            int status = 0;
            Throwable cause = null;
            try {
                status = exchange(request, deadline);
                outcome = Outcomes.ofResponse(request, status, -1);
            } catch (Exception e) {
                outcome = Outcomes.ofThrowable(e);
                cause = e;
                failed.incrementAndGet();
            }
            completion.complete(outcome, status, cause);
        });
    }

    private int exchange(Request request, long deadline) throws Exception {
        while (true) {
            CompletableFuture<Integer> answer = connection().open(request, deadline);
            try {
                return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Refused r && r.byGoAway && knobs.resendRefused()) {
                    continue;
                }
                throw e.getCause() instanceof Exception x ? x : e;
            }
        }
    }

    private synchronized Connection connection() throws IOException {
        if (current == null || current.goingAway || current.closed) {
            current = new Connection();
            all.add(current);
            connects.incrementAndGet();
        }
        return current;
    }

    /** One h2c connection: the preface and SETTINGS exchanged before any stream, then a reader thread. */
    private final class Connection {
        private final Socket socket = new Socket();
        private final DataInputStream in;
        private final OutputStream out;
        private final Map<Integer, CompletableFuture<Integer>> open = new ConcurrentHashMap<>();
        private final Map<Integer, Integer> status = new ConcurrentHashMap<>();
        /** Callers waiting for a stream under the server's limit, in the order they came. */
        private final java.util.ArrayDeque<Object> waiting = new java.util.ArrayDeque<>();
        private int nextId = 1;
        private int maxStreams = Integer.MAX_VALUE;
        private volatile boolean goingAway;
        private volatile boolean closed;

        Connection() throws IOException {
            socket.connect(new InetSocketAddress(config.target().getHost(), config.target().getPort()),
                    (int) config.connectTimeout().toMillis());
            in = new DataInputStream(socket.getInputStream());
            out = socket.getOutputStream();
            out.write(PREFACE);
            frame(SETTINGS, 0, 0, new byte[0]);
            for (int frames = 0; !settings(read()); frames++) {
                if (frames > 10) {
                    throw new IOException("no SETTINGS from the server in its first 10 frames");
                }
            }
            Thread.ofVirtual().start(this::readAll);
        }

        /** A new stream for {@code request}; waits for room under the server's limit when the knob says so. */
        synchronized CompletableFuture<Integer> open(Request request, long deadline) throws Exception {
            Object turn = new Object(); // a free stream goes to the longest waiting: a monitor's wake-ups keep no order
            waiting.add(turn);
            try {
                while (knobs.queueAtLimit() && (waiting.peek() != turn || open.size() >= maxStreams) && !goingAway
                        && !closed) {
                    long ms = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (ms <= 0) {
                        throw new TimeoutException("no stream free within the timeout");
                    }
                    wait(ms);
                }
            } finally {
                waiting.remove(turn);
                notifyAll();
            }
            CompletableFuture<Integer> answer = new CompletableFuture<>();
            if (goingAway || closed) {
                answer.completeExceptionally(new Refused("connection going away", true));
                return answer;
            }
            int id = nextId;
            nextId += 2;
            open.put(id, answer);
            peakStreams.accumulateAndGet(open.size(), Math::max);
            try {
                frame(HEADERS, END_HEADERS | END_STREAM, id, headerBlock(request));
            } catch (IOException closedUnderIt) {
                // Whether the server processed it is its GOAWAY's to say, read before the close (RFC 9113 §6.8: a stream
                // above the last-stream-id was not); the reader refuses it, or fails it when no GOAWAY came.
                closed = true;
            }
            return answer;
        }

        private synchronized void ended(int id) {
            open.remove(id);
            notifyAll();
        }

        private void readAll() {
            try {
                while (true) {
                    Frame f = read();
                    if (f.type() == SETTINGS) {
                        settings(f);
                    } else if ((f.type() == HEADERS || f.type() == DATA) && open.containsKey(f.stream())) {
                        if (f.type() == HEADERS) {
                            boolean ok = f.payload().length > 0 && (f.payload()[0] & 0xff) == 0x88; // :status 200, indexed
                            status.putIfAbsent(f.stream(), ok ? 200 : 0);
                        }
                        if ((f.flags() & END_STREAM) != 0) {
                            CompletableFuture<Integer> a = open.get(f.stream());
                            ended(f.stream());
                            a.complete(status.getOrDefault(f.stream(), 0));
                        }
                    } else if (f.type() == RST_STREAM && open.containsKey(f.stream())) {
                        resets.incrementAndGet();
                        CompletableFuture<Integer> a = open.get(f.stream());
                        ended(f.stream());
                        a.completeExceptionally(new Refused("stream reset, code " + f.firstInt(), false));
                    } else if (f.type() == GOAWAY) {
                        goAway(f.firstInt());
                    }
                }
            } catch (IOException e) {
                synchronized (this) { // under the lock open() takes: no stream is added once these are failed
                    closed = true;
                    notifyAll();
                    open.forEach((id, a) -> a.completeExceptionally(new IOException("connection closed with the stream open")));
                }
            }
        }

        /** The streams past the GOAWAY's last are refused, unprocessed; the others are still answered. */
        private synchronized void goAway(int last) {
            goAways.incrementAndGet();
            goingAway = true;
            for (int id : List.copyOf(open.keySet())) {
                if (id > last) {
                    refusedByGoAway.incrementAndGet();
                    CompletableFuture<Integer> a = open.get(id);
                    ended(id);
                    a.completeExceptionally(new Refused("refused by a GOAWAY", true));
                }
            }
            notifyAll();
        }

        /** True for the server's SETTINGS (not an ACK): its stream limit kept, the ACK sent. */
        private boolean settings(Frame f) throws IOException {
            if (f.type() != SETTINGS || (f.flags() & 1) != 0) {
                return false;
            }
            for (int i = 0; i + 6 <= f.payload().length; i += 6) {
                int id = ((f.payload()[i] & 0xff) << 8) | (f.payload()[i + 1] & 0xff);
                if (id == MAX_CONCURRENT_STREAMS) {
                    synchronized (this) {
                        maxStreams = (int) Math.min(Integer.MAX_VALUE, H2Frames.intAt(f.payload(), i + 2) & 0xffffffffL);
                        notifyAll();
                    }
                }
            }
            frame(SETTINGS, 1, 0, new byte[0]);
            return true;
        }

        private Frame read() throws IOException {
            return H2Frames.read(in);
        }

        private void frame(int type, int flags, int stream, byte[] payload) throws IOException {
            synchronized (out) {
                H2Frames.write(out, type, flags, stream, payload);
            }
        }

        void close() {
            closed = true;
            try {
                socket.close();
            } catch (IOException ignored) {
                // closed either way
            }
        }
    }

    /** GET, http, :path and :authority as HPACK literals without indexing, then the request's own headers. */
    private static byte[] headerBlock(Request request) {
        if (!request.method().equals("GET")) {
            throw new IllegalArgumentException("known-h2 sends GETs only");
        }
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x82); // :method GET, static table 2
        block.write(0x86); // :scheme http, static table 6
        String path = request.uri().getRawPath() + (request.uri().getRawQuery() == null ? "" : "?" + request.uri().getRawQuery());
        block.write(4); // :path, a literal without indexing, indexed name
        H2Frames.string(block, path);
        block.write(1); // :authority
        H2Frames.string(block, request.uri().getAuthority());
        for (Request.Header h : request.headers()) {
            block.write(0x00); // a literal name and value, not indexed
            H2Frames.string(block, h.name().toLowerCase(java.util.Locale.ROOT));
            H2Frames.string(block, h.value());
        }
        return block.toByteArray();
    }

    @Override
    public void close() {
        threads.shutdownNow();
        all.forEach(Connection::close);
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String name() {
        return "known-h2";
    }

    @Override
    public String libraryVersion() {
        return "none: the test's own";
    }

    @Override
    public Map<String, String> settings() {
        return Map.of("knobs", knobs.toString(), "h2Connections", "one at a time, a new one after a GOAWAY");
    }
}
