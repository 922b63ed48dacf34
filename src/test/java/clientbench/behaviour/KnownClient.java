package clientbench.behaviour;

import clientbench.api.AdapterConfig;
import clientbench.api.Completion;
import clientbench.api.HttpClientAdapter;
import clientbench.api.Outcome;
import clientbench.api.Outcomes;
import clientbench.api.Request;
import clientbench.api.TimeoutKind;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP/1.1 client over plain sockets whose every habit is a knob, and which counts what it did: a case's figures are
 * checked against these counts, never against the case's own code. No stale check: an idle socket is reused as it is,
 * the newest first; one virtual thread per request; no HTTP/2 (it refuses h2c and h2, as a client without it does).
 */
final class KnownClient implements HttpClientAdapter {

    /**
     * @param resend send a request once more when its connection closes before any byte of an answer
     * @param limit requests at once, across every host (0: none); a request waits for a slot within its timeout
     * @param deadlineCoversBody the timeout bounds the body too; else it ends at the head, and a body may take forever
     * @param closeOnTimeout a timed-out request's socket is closed; else it is left open
     * @param freeSlotOnTimeout a timed-out request gives its slot back; else the slot is lost for good
     * @param perHost requests at once to one host (0: none), taken before a slot of {@code limit}
     * @param dropUnread a body the caller leaves unread closes its socket; else the rest is drained, the socket kept
     * @param perRead the timeout bounds each read, not the exchange: a body trickled faster than it never ends it
     * @param checkBeforeReuse an idle socket is polled before reuse, and dropped when its server closed it
     * @param reclaimOnCollection a body left open is freed (socket closed, slot back) once the response is collected
     * @param closeAfterAnswer each socket closed once its answer is read: a new connection for every request
     */
    record Knobs(boolean resend, int limit, boolean deadlineCoversBody, boolean closeOnTimeout, boolean freeSlotOnTimeout,
                 int perHost, boolean dropUnread, boolean perRead, boolean checkBeforeReuse, boolean reclaimOnCollection,
                 boolean closeAfterAnswer) {
        static Knobs plain() {
            return new Knobs(false, 0, true, true, true, 0, false, false, false, false, false);
        }

        Knobs perReadDeadline() {
            return new Knobs(resend, limit, true, closeOnTimeout, freeSlotOnTimeout, perHost, dropUnread, true,
                    checkBeforeReuse, reclaimOnCollection, closeAfterAnswer);
        }

        Knobs droppingUnread() {
            return new Knobs(resend, limit, deadlineCoversBody, closeOnTimeout, freeSlotOnTimeout, perHost, true, perRead,
                    checkBeforeReuse, reclaimOnCollection, closeAfterAnswer);
        }

        Knobs resending() {
            return new Knobs(true, limit, deadlineCoversBody, closeOnTimeout, freeSlotOnTimeout, perHost, dropUnread,
                    perRead, checkBeforeReuse, reclaimOnCollection, closeAfterAnswer);
        }

        Knobs limitedTo(int n) {
            return new Knobs(resend, n, deadlineCoversBody, closeOnTimeout, freeSlotOnTimeout, perHost, dropUnread,
                    perRead, checkBeforeReuse, reclaimOnCollection, closeAfterAnswer);
        }

        Knobs perHostLimitedTo(int n) {
            return new Knobs(resend, limit, deadlineCoversBody, closeOnTimeout, freeSlotOnTimeout, n, dropUnread, perRead,
                    checkBeforeReuse, reclaimOnCollection, closeAfterAnswer);
        }

        Knobs headersOnlyDeadline() {
            return new Knobs(resend, limit, false, closeOnTimeout, freeSlotOnTimeout, perHost, dropUnread, perRead,
                    checkBeforeReuse, reclaimOnCollection, closeAfterAnswer);
        }

        Knobs leaking() {
            return new Knobs(resend, limit, deadlineCoversBody, false, false, perHost, dropUnread, perRead,
                    checkBeforeReuse, reclaimOnCollection, closeAfterAnswer);
        }

        /** An idle socket is polled before reuse: one its server closed (EOF, reset) is dropped, a fresh one opened. */
        Knobs checkingBeforeReuse() {
            return new Knobs(resend, limit, deadlineCoversBody, closeOnTimeout, freeSlotOnTimeout, perHost, dropUnread,
                    perRead, true, reclaimOnCollection, closeAfterAnswer);
        }

        /** A body left open is the caller's response's: once that is collected, its socket is closed and its slot freed. */
        Knobs reclaimingOnCollection() {
            return new Knobs(resend, limit, deadlineCoversBody, closeOnTimeout, freeSlotOnTimeout, perHost, dropUnread,
                    perRead, checkBeforeReuse, true, closeAfterAnswer);
        }

        /** A new connection for every request: each socket closed once its answer is read, none ever reused. */
        Knobs closingAfterEachAnswer() {
            return new Knobs(resend, limit, deadlineCoversBody, closeOnTimeout, freeSlotOnTimeout, perHost, dropUnread,
                    perRead, checkBeforeReuse, reclaimOnCollection, true);
        }
    }

    final AtomicInteger connects = new AtomicInteger();
    final AtomicInteger resends = new AtomicInteger();
    /** Requests whose socket closed (or reset) before a byte of an answer: each lost to a closed connection once. */
    final AtomicInteger closedBeforeAnswer = new AtomicInteger();
    /** Idle sockets the check before reuse found closed by their server, and dropped. */
    final AtomicInteger staleDropped = new AtomicInteger();
    final AtomicInteger timeouts = new AtomicInteger();
    final AtomicInteger bodiesWithoutDeadline = new AtomicInteger();
    final AtomicInteger unreadDropped = new AtomicInteger();
    /** Sockets a timeout left open: what a leak-counting case should find. */
    final Set<Socket> leaked = ConcurrentHashMap.newKeySet();
    /**
     * Sockets whose body the caller left open: each keeps its slot, as a pool's connection would, until close(), or
     * until its response is collected where the client reclaims ({@code reclaimed} counts those).
     */
    final Set<Socket> leftOpen = ConcurrentHashMap.newKeySet();
    final AtomicInteger reclaimed = new AtomicInteger();

    private final AdapterConfig config;
    private final Knobs knobs;
    private final Semaphore slots;
    private final Map<String, Semaphore> hostSlots = new ConcurrentHashMap<>();
    private final Map<String, Deque<Socket>> idle = new ConcurrentHashMap<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final java.lang.ref.Cleaner cleaner = java.lang.ref.Cleaner.create();

    KnownClient(AdapterConfig config, Knobs knobs) {
        if (config.protocol() != clientbench.api.Protocol.HTTP1) {
            throw new IllegalArgumentException("known: HTTP/1.1 only; protocol " + config.protocol().label() + " refused");
        }
        this.config = config;
        this.knobs = knobs;
        this.slots = knobs.limit() > 0 ? new Semaphore(knobs.limit(), true) : null;
    }

    @Override
    public void send(Request request, Completion completion) {
        long deadline = System.nanoTime() + config.requestTimeout().toNanos();
        threads.execute(() -> {
            Outcome outcome;
            int status = 0;
            Semaphore host = knobs.perHost() == 0 ? null
                    : hostSlots.computeIfAbsent(request.uri().getAuthority(), k -> new Semaphore(knobs.perHost(), true));
            boolean hostSlot = false;
            try {
                if (host != null && !(hostSlot = host.tryAcquire(deadline - System.nanoTime(), TimeUnit.NANOSECONDS))) {
                    throw new TimeoutException("no slot for the host within the timeout");
                }
                if (slots != null && !slots.tryAcquire(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                    throw new TimeoutException("no slot within the timeout");
                }
                boolean freeSlot = true;
                try {
                    long[] answer = exchange(request, deadline);
                    freeSlot = !request.leavesBodyOpen();
                    status = (int) answer[0];
                    outcome = Outcomes.ofResponse(request, status, answer[1]);
                } catch (SocketTimeoutException e) {
                    timeouts.incrementAndGet();
                    freeSlot = knobs.freeSlotOnTimeout();
                    throw e;
                } finally {
                    if (slots != null && freeSlot) {
                        slots.release();
                    }
                }
            } catch (Exception e) {
                outcome = Outcomes.ofThrowable(e);
            } finally {
                if (hostSlot) {
                    host.release();
                }
            }
            completion.complete(outcome, status, null);
        });
    }

    /** One exchange, sent again once on a fresh connection if the knob says so: its status and body length. */
    private long[] exchange(Request request, long deadline) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Socket s = socket(request);
            try {
                return once(s, request, deadline);
            } catch (EOFException closed) {
                forget(s);
                closedBeforeAnswer.incrementAndGet();
                if (!knobs.resend() || attempt > 0) {
                    throw closed;
                }
                resends.incrementAndGet();
            } catch (SocketTimeoutException e) {
                if (knobs.closeOnTimeout()) {
                    forget(s);
                } else {
                    leaked.add(s);
                }
                throw e;
            } catch (IOException e) {
                forget(s);
                throw e;
            }
        }
    }

    private long[] once(Socket s, Request request, long deadline) throws IOException {
        String authority = request.uri().getHost() + ":" + request.uri().getPort();
        StringBuilder head = new StringBuilder(request.method() + " " + request.uri().getRawPath()
                + (request.uri().getRawQuery() == null ? "" : "?" + request.uri().getRawQuery()) + " HTTP/1.1\r\nHost: "
                + authority + "\r\n");
        request.headers().forEach(h -> head.append(h.name()).append(": ").append(h.value()).append("\r\n"));
        if (request.hasBody()) {
            head.append("Content-Type: ").append(request.contentType()).append("\r\nContent-Length: ")
                    .append(request.body().length).append("\r\n");
        }
        try {
            s.getOutputStream().write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().write(request.body());
            s.getOutputStream().flush();
        } catch (IOException e) { // a connection the server has reset: no answer came
            throw new EOFException("closed before the request was written: " + e.getMessage());
        }
        InputStream in = s.getInputStream();
        String answer = readHead(s, in, deadline);
        int status = Integer.parseInt(answer.substring(9, 12));
        long length = 0;
        boolean close = false;
        for (String line : answer.split("\r\n")) {
            String lower = line.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring(15).trim());
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        if (request.leavesBodyOpen()) {
            leftOpen.add(s);
            if (knobs.reclaimOnCollection()) {
                cleaner.register(new Object(), () -> reclaim(s)); // the response the caller forgets: nothing holds it
            }
            return new long[] {status, -1};
        }
        if (request.abandonsBody() && knobs.dropUnread()) {
            unreadDropped.incrementAndGet();
            forget(s);
            return new long[] {status, -1};
        }
        if (!knobs.deadlineCoversBody()) {
            bodiesWithoutDeadline.incrementAndGet();
        }
        byte[] chunk = new byte[8192];
        for (long read = 0; read < length; ) {
            if (knobs.deadlineCoversBody()) {
                s.setSoTimeout(soTimeout(deadline));
            } else {
                s.setSoTimeout(0);
            }
            int n = in.read(chunk, 0, (int) Math.min(chunk.length, length - read));
            if (n < 0) {
                throw new IOException("connection closed in the body");
            }
            read += n;
        }
        if (close || knobs.closeAfterAnswer()) {
            forget(s);
        } else {
            idle.computeIfAbsent(authority, k -> new ConcurrentLinkedDeque<>()).push(s);
        }
        return new long[] {status, request.abandonsBody() ? -1 : length};
    }

    /** The head of the answer; EOFException when the connection closed (or reset) before its first byte. */
    private String readHead(Socket s, InputStream in, long deadline) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (b.size() < 4 || !b.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            s.setSoTimeout(soTimeout(deadline));
            int c;
            try {
                c = in.read();
            } catch (java.net.SocketException reset) {
                if (b.size() == 0) {
                    throw new EOFException("reset before an answer: " + reset.getMessage());
                }
                throw reset;
            }
            if (c < 0) {
                throw new EOFException("closed after " + b.size() + " bytes of an answer");
            }
            b.write(c);
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    /** The next read's timeout: the whole request timeout when it bounds each read, else what is left of it. */
    private int soTimeout(long deadline) throws SocketTimeoutException {
        return knobs.perRead() ? (int) config.requestTimeout().toMillis() : left(deadline);
    }

    private static int left(long deadline) throws SocketTimeoutException {
        long ms = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (ms <= 0) {
            throw new SocketTimeoutException("request timeout");
        }
        return (int) ms;
    }

    private Socket socket(Request request) throws IOException {
        Deque<Socket> pool = idle.get(request.uri().getHost() + ":" + request.uri().getPort());
        for (Socket s = pool == null ? null : pool.poll(); s != null; s = pool.poll()) {
            if (!knobs.checkBeforeReuse() || open(s)) {
                return s;
            }
            staleDropped.incrementAndGet();
            forget(s);
        }
        Socket s;
        s = new Socket();
        open.add(s);
        s.connect(new InetSocketAddress(request.uri().getHost(), request.uri().getPort()),
                (int) config.connectTimeout().toMillis());
        connects.incrementAndGet();
        return s;
    }

    private void reclaim(Socket s) {
        if (leftOpen.remove(s)) {
            reclaimed.incrementAndGet();
            forget(s);
            if (slots != null) {
                slots.release();
            }
        }
    }

    /** An idle socket's poll: no byte and no end within a millisecond is open; an end or a reset is closed. */
    private static boolean open(Socket s) {
        try {
            s.setSoTimeout(1);
            return s.getInputStream().read() >= 0; // an idle socket has nothing to read but its end
        } catch (SocketTimeoutException quiet) {
            return true;
        } catch (IOException reset) {
            return false;
        }
    }

    private void forget(Socket s) {
        open.remove(s);
        try {
            s.close();
        } catch (IOException ignored) {
            // closed either way
        }
    }

    @Override
    public void close() {
        open.forEach(this::forget);
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String name() {
        return "known";
    }

    @Override
    public String libraryVersion() {
        return "none: the test's own";
    }

    @Override
    public Map<String, String> settings() {
        return Map.of("knobs", knobs.toString(), "timeoutKind", (knobs.perRead() ? TimeoutKind.PER_READ
                : knobs.deadlineCoversBody() ? TimeoutKind.TOTAL : TimeoutKind.HEADERS).label());
    }
}
