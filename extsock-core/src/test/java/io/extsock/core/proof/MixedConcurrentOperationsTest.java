package io.extsock.core.proof;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkOpcode;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Six connections at once, each busy on several threads.
 *
 * <ul>
 *   <li>Two connections with the socket's streams on: both ends write and read 4 MiB at the
 *       same time (four stream threads), while the client end posts RDMA Writes and RDMA Reads
 *       into and from the server end's regions from two more threads, with one thread taking
 *       the completions.</li>
 *   <li>Four verbs connections (STREAMS=false), the same on both ends: two threads post Sends
 *       (each message names its sender and number, its bytes derived from them), one posts
 *       RDMA Writes with up to 16 outstanding, one posts RDMA Reads with up to the ORD (16)
 *       outstanding, and two threads take the completions from the one completion queue and
 *       check every Receive.</li>
 * </ul>
 * Every byte is checked: streams as they are read, Receives as they complete (and each
 * sender's messages arrive in its order), Read sinks as they complete, Write targets at the
 * end (after a zero-length Read behind the Writes, which the peer serves only once they are
 * placed). Every posted request must complete exactly once (completions are counted by tag)
 * and successfully. Every wait is bounded: a hang fails with a thread dump. {@code
 * -Dextsock.long=true} runs 20 rounds instead of one.
 */
@Timeout(120)
class MixedConcurrentOperationsTest {

    private static final int STREAM_CONNECTIONS = 2;
    private static final int VERBS_CONNECTIONS = 4;
    private static final int STREAM_BYTES = 4 << 20;
    private static final int SENDERS = 2;
    private static final int SENDS_PER_SENDER = 200;
    private static final int MESSAGE_MAX = 8192;
    private static final int WRITES = 128;
    private static final int WRITE_MAX = 16 * 1024;
    private static final int WRITES_OUTSTANDING = 16;
    private static final int READS = 128;
    private static final int READ_MAX = 32 * 1024;
    private static final int REGION = 2 << 20;
    private static final long WAIT_SECONDS = 60;
    private static final int ROUNDS = Boolean.getBoolean("extsock.long") ? 20 : 1;

    /** Tag layout: kind in bits 48+, poster in 32-47, sequence number below. */
    private static final long SEND = 1;
    private static final long WRITE = 2;
    private static final long READ = 3;
    private static final long RECEIVE = 4;
    private static final long FENCE = 5;

    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final List<Thread> workers = new ArrayList<>();
    private CountDownLatch start;

    private static long tag(long kind, int poster, int sequence) {
        return kind << 48 | (long) poster << 32 | sequence;
    }

    @Test
    void sixBusyConnectionsAtOnce() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            workers.clear();
            start = new CountDownLatch(1);
            oneRound();
        }
    }

    private void oneRound() throws Exception {
        List<AutoCloseable> resources = new ArrayList<>();
        List<Runnable> finalChecks = new ArrayList<>();
        try {
            for (int c = 0; c < STREAM_CONNECTIONS + VERBS_CONNECTIONS; c++) {
                boolean streams = c < STREAM_CONNECTIONS;
                IwarpSocketPair pair = IwarpSocketPair.builder().option(IwarpOptions.STREAMS, streams).open();
                resources.add(pair);
                String name = (streams ? "stream" : "verbs") + c;
                if (streams) {
                    finalChecks.add(streamConnection(name, pair.client(), pair.accepted()));
                } else {
                    End client = new End(name + "-client", pair.clientVerbs(), c * 2L);
                    End accepted = new End(name + "-server", pair.serverVerbs(), c * 2L + 1);
                    client.peer = accepted;
                    accepted.peer = client;
                    client.postReceives();
                    accepted.postReceives();
                    for (End end : List.of(client, accepted)) {
                        end.startVerbsWorkers();
                        finalChecks.add(end::checkAtTheEnd);
                    }
                }
            }
            long began = System.nanoTime();
            start.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            for (Thread worker : workers) {
                worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (worker.isAlive()) {
                    throw new AssertionError("no progress: " + worker.getName() + " still runs after " + WAIT_SECONDS
                            + " s; failures so far: " + failures + "\n" + Proof.threadDump());
                }
            }
            long elapsed = System.nanoTime() - began;
            assertEquals(List.of(), List.copyOf(failures));
            for (Runnable check : finalChecks) {
                check.run();
            }
            assertEquals(List.of(), List.copyOf(failures));
            System.out.printf("%d connections, %d threads: done in %d ms%n", STREAM_CONNECTIONS + VERBS_CONNECTIONS,
                    workers.size(), elapsed / 1_000_000);
        } finally {
            for (AutoCloseable resource : resources) {
                resource.close();
            }
        }
    }

    private void worker(String name, ThrowingRunnable body) {
        Thread thread = new Thread(() -> {
            try {
                if (!start.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                    throw new AssertionError("never started");
                }
                body.run();
            } catch (Throwable t) {
                failures.add(name + ": " + t);
            }
        }, name);
        thread.setDaemon(true);
        workers.add(thread);
        thread.start();
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    // ---- the stream connections -----------------------------------------------------------------

    /**
     * Full-duplex stream traffic on both ends, and RDMA Writes and Reads by the client end on
     * the same connection. Returns the check to run when every thread is done.
     */
    private Runnable streamConnection(String name, ExtendedSocket client, ExtendedSocket accepted) throws Exception {
        for (ExtendedSocket socket : List.of(client, accepted)) {
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        }
        long seed = name.hashCode();
        worker(name + "-client-writer", () -> writeStream(client.getOutputStream(), seed));
        worker(name + "-server-reader", () -> readStream(accepted.getInputStream(), seed, name + " client to server"));
        worker(name + "-server-writer", () -> writeStream(accepted.getOutputStream(), seed + 1));
        worker(name + "-client-reader", () -> readStream(client.getInputStream(), seed + 1, name + " server to client"));
        End rdmaClient = new End(name + "-client", client.iwarp(), seed);
        End rdmaServer = new End(name + "-server", accepted.iwarp(), seed + 1);
        rdmaClient.peer = rdmaServer;
        rdmaServer.peer = rdmaClient;
        rdmaClient.startOneSidedWorkers();
        return rdmaClient::checkAtTheEnd;
    }

    private static void writeStream(OutputStream out, long seed) throws IOException {
        byte[] data = Proof.random(STREAM_BYTES, seed);
        SplittableRandom chunks = new SplittableRandom(seed);
        for (int at = 0; at < data.length; ) {
            int n = Math.min(data.length - at, 1 + chunks.nextInt(64 * 1024));
            out.write(data, at, n);
            at += n;
        }
        out.flush();
    }

    private static void readStream(InputStream in, long seed, String what) throws IOException {
        byte[] expected = Proof.random(STREAM_BYTES, seed);
        byte[] got = new byte[STREAM_BYTES];
        SplittableRandom chunks = new SplittableRandom(~seed);
        for (int at = 0; at < got.length; ) {
            int n = in.read(got, at, Math.min(got.length - at, 1 + chunks.nextInt(32 * 1024)));
            if (n < 0) {
                throw new IOException(what + ": the stream ended at " + at);
            }
            at += n;
        }
        if (!Arrays.equals(expected, got)) {
            throw new AssertionError(what + ": the stream's bytes differ at " + Arrays.mismatch(expected, got));
        }
    }

    // ---- one end of a connection, for the verbs ---------------------------------------------------

    /** One end: its regions, its posting threads, its completion takers, and what it expects. */
    private final class End {
        final String name;
        final IwarpConnection verbs;
        final long seed;
        End peer;

        /** RDMA Write target (the peer writes here) and RDMA Read source (the peer reads here). */
        final MemoryRegion target;
        final MemoryRegion exposed;
        final byte[] exposedBytes;
        /** What this end writes into the peer's target, where; and what it reads. */
        final MemoryRegion writeSource;
        final int[] writeLength = new int[WRITES];
        final MemoryRegion readSink;
        final int[] readOffset = new int[READS];
        final int[] readLength = new int[READS];
        final byte[] expectedPeerTarget = new byte[REGION];

        /** Sends: one source region per sender; Receives: one slot per message the peer sends. */
        MemoryRegion[] sendSource;
        MemoryRegion inbox;
        final int[] slotSender = new int[SENDERS * SENDS_PER_SENDER];
        final int[] slotSequence = new int[SENDERS * SENDS_PER_SENDER];

        final ConcurrentHashMap<Long, Integer> completed = new ConcurrentHashMap<>();
        final Set<Long> posted = ConcurrentHashMap.newKeySet();
        final AtomicInteger completions = new AtomicInteger();
        int expectedCompletions;
        final Semaphore writeCredits = new Semaphore(WRITES_OUTSTANDING);
        final Semaphore readCredits;
        final Semaphore[] sendCredits = new Semaphore[SENDERS];
        final CountDownLatch fenced = new CountDownLatch(1);

        End(String name, IwarpConnection verbs, long seed) throws IOException {
            this.name = name;
            this.verbs = verbs;
            this.seed = seed;
            this.readCredits = new Semaphore(verbs.settings().ord());
            SplittableRandom random = new SplittableRandom(seed);
            target = verbs.register(ByteBuffer.allocateDirect(REGION), EnumSet.of(Access.LOCAL_WRITE,
                    Access.REMOTE_WRITE));
            exposedBytes = Proof.random(REGION, seed * 31 + 7);
            exposed = verbs.register(ByteBuffer.allocateDirect(REGION).put(exposedBytes), EnumSet.of(Access.REMOTE_READ));
            byte[] writeBytes = Proof.random(WRITES * WRITE_MAX, seed * 31 + 8);
            writeSource = verbs.register(ByteBuffer.allocateDirect(writeBytes.length).put(writeBytes), Set.of());
            for (int j = 0; j < WRITES; j++) {
                writeLength[j] = 1 + random.nextInt(WRITE_MAX);
                System.arraycopy(writeBytes, j * WRITE_MAX, expectedPeerTarget, j * WRITE_MAX, writeLength[j]);
            }
            readSink = verbs.register(ByteBuffer.allocateDirect(READS * READ_MAX), EnumSet.of(Access.LOCAL_WRITE));
            for (int j = 0; j < READS; j++) {
                readLength[j] = 1 + random.nextInt(READ_MAX);
                readOffset[j] = random.nextInt(REGION - readLength[j] + 1);
            }
            for (int s = 0; s < SENDERS; s++) {
                sendCredits[s] = new Semaphore(16);
            }
        }

        /** Verbs connections: a Receive for every message the peer will send, before it starts. */
        void postReceives() throws IOException {
            inbox = verbs.register(ByteBuffer.allocateDirect(SENDERS * SENDS_PER_SENDER * MESSAGE_MAX),
                    EnumSet.of(Access.LOCAL_WRITE));
            ReceiveRequest receive = new ReceiveRequest();  // one object, reused for every post
            for (int slot = 0; slot < SENDERS * SENDS_PER_SENDER; slot++) {
                long tag = tag(RECEIVE, 0, slot);
                posted.add(tag);
                verbs.post(receive.tag(tag).scatter(inbox.slice((long) slot * MESSAGE_MAX, MESSAGE_MAX)));
            }
            sendSource = new MemoryRegion[SENDERS];
            for (int s = 0; s < SENDERS; s++) {
                sendSource[s] = verbs.register(ByteBuffer.allocateDirect(SENDS_PER_SENDER * MESSAGE_MAX), Set.of());
                for (int j = 0; j < SENDS_PER_SENDER; j++) {
                    ByteBuffer message = message(seed, s, j);
                    sendSource[s].buffer().put(j * MESSAGE_MAX, message, 0, message.limit());
                }
            }
        }

        void startVerbsWorkers() {
            expectedCompletions = SENDERS * SENDS_PER_SENDER  // our Sends
                    + SENDERS * SENDS_PER_SENDER                 // the peer's, into our Receives
                    + WRITES + READS + 1;                         // and the fence
            for (int s = 0; s < SENDERS; s++) {
                int sender = s;
                worker(name + "-sender" + s, () -> send(sender));
            }
            worker(name + "-writer", this::write);
            worker(name + "-reader", this::read);
            worker(name + "-completions0", this::takeCompletions);
            worker(name + "-completions1", this::takeCompletions);
        }

        /** Stream connections: only RDMA Writes and Reads, into and from the peer. */
        void startOneSidedWorkers() {
            expectedCompletions = WRITES + READS + 1;
            worker(name + "-writer", this::write);
            worker(name + "-reader", this::read);
            worker(name + "-completions", this::takeCompletions);
        }

        private void send(int sender) throws Exception {
            SendRequest request = new SendRequest();  // reused: posting copies what it needs
            for (int j = 0; j < SENDS_PER_SENDER; j++) {
                acquire(sendCredits[sender], 1, "send credit");
                int length = messageLength(seed, sender, j);
                long tag = tag(SEND, sender, j);
                posted.add(tag);
                verbs.post(request.tag(tag).gather(sendSource[sender].slice((long) j * MESSAGE_MAX, length))
                        .solicited(j % 16 == 15));
            }
        }

        private void write() throws Exception {
            WriteRequest request = new WriteRequest();
            RemoteBuffer into = peer.target.remote();
            for (int j = 0; j < WRITES; j++) {
                acquire(writeCredits, 1, "write credit");
                long tag = tag(WRITE, 0, j);
                posted.add(tag);
                verbs.post(request.tag(tag).gather(writeSource.slice((long) j * WRITE_MAX, writeLength[j]))
                        .target(into.slice((long) j * WRITE_MAX, writeLength[j])));
            }
            acquire(writeCredits, WRITES_OUTSTANDING, "every Write's completion");
            // Served by the peer only after it has placed every Write before it.
            long tag = tag(FENCE, 0, 0);
            posted.add(tag);
            verbs.post(new ReadRequest().tag(tag).source(peer.exposed.remote(0, 0)).sink(readSink.slice(0, 0)));
            if (!fenced.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("the fence Read did not complete\n" + Proof.threadDump());
            }
        }

        private void read() throws Exception {
            ReadRequest request = new ReadRequest();
            RemoteBuffer from = peer.exposed.remote();
            for (int j = 0; j < READS; j++) {
                acquire(readCredits, 1, "read credit");  // at most ORD outstanding
                long tag = tag(READ, 0, j);
                posted.add(tag);
                verbs.post(request.tag(tag).source(from.slice(readOffset[j], readLength[j]))
                        .sink(readSink.slice((long) j * READ_MAX, readLength[j])));
            }
        }

        private void takeCompletions() throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (completions.get() < expectedCompletions) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError(name + ": " + completions.get() + " of " + expectedCompletions
                            + " completions after " + WAIT_SECONDS + " s; missing: " + missing() + "\n"
                            + Proof.threadDump());
                }
                if (verbs.completions().await(50, TimeUnit.MILLISECONDS)) {
                    verbs.completions().poll(this::completed, 16);
                }
            }
        }

        private void completed(CompletionView view) {
            long tag = view.tag();
            Integer times = completed.merge(tag, 1, Integer::sum);
            completions.incrementAndGet();
            if (times > 1) {
                failures.add(name + ": request " + Long.toHexString(tag) + " completed " + times + " times");
            }
            if (view.status() != CompletionStatus.SUCCESS) {
                failures.add(name + ": request " + Long.toHexString(tag) + " " + view.status() + ": " + view.detail());
            }
            int poster = (int) (tag >>> 32 & 0xFFFF);
            int sequence = (int) tag;
            long kind = tag >>> 48;
            if (kind == SEND) {
                expectOpcode(view, WorkOpcode.SEND);
                sendCredits[poster].release();
            } else if (kind == WRITE) {
                expectOpcode(view, WorkOpcode.RDMA_WRITE);
                writeCredits.release();
            } else if (kind == READ) {
                expectOpcode(view, WorkOpcode.RDMA_READ);
                checkRead(sequence, view.byteLength());
                readCredits.release();
            } else if (kind == FENCE) {
                fenced.countDown();
            } else if (kind == RECEIVE) {
                expectOpcode(view, WorkOpcode.RECEIVE);
                checkReceive(sequence, view);
            } else {
                failures.add(name + ": a completion with a tag nobody posted: " + Long.toHexString(tag));
            }
        }

        private void expectOpcode(CompletionView view, WorkOpcode opcode) {
            if (view.opcode() != opcode) {
                failures.add(name + ": request " + Long.toHexString(view.tag()) + " completed as " + view.opcode());
            }
        }

        private void checkRead(int j, long length) {
            if (length != readLength[j]) {
                failures.add(name + ": read " + j + " reports " + length + " bytes, not " + readLength[j]);
            }
            byte[] got = Proof.bytes(readSink.buffer(), j * READ_MAX, readLength[j]);
            if (!Arrays.equals(peer.exposedBytes, readOffset[j], readOffset[j] + readLength[j], got, 0, got.length)) {
                failures.add(name + ": read " + j + " brought other bytes");
            }
        }

        private void checkReceive(int slot, CompletionView view) {
            ByteBuffer got = inbox.buffer().position(slot * MESSAGE_MAX).limit(slot * MESSAGE_MAX + (int) view.byteLength())
                    .slice();
            if (got.remaining() < 12) {
                failures.add(name + ": receive " + slot + " got " + got.remaining() + " bytes");
                return;
            }
            int sender = got.getInt(0);
            int sequence = got.getInt(4);
            if (sender < 0 || sender >= SENDERS || sequence < 0 || sequence >= SENDS_PER_SENDER) {
                failures.add(name + ": receive " + slot + " names sender " + sender + ", message " + sequence);
                return;
            }
            slotSender[slot] = sender;
            slotSequence[slot] = sequence;
            if (!got.equals(message(peer.seed, sender, sequence))) {
                failures.add(name + ": receive " + slot + " (sender " + sender + ", message " + sequence
                        + ") has other bytes");
            }
            if (view.solicited() != (sequence % 16 == 15)) {
                failures.add(name + ": receive " + slot + " solicited " + view.solicited());
            }
        }

        /** After every thread: each request completed once, each sender's order kept, Writes placed. */
        void checkAtTheEnd() {
            for (long tag : posted) {
                Integer times = completed.get(tag);
                if (times == null || times != 1) {
                    failures.add(name + ": request " + Long.toHexString(tag) + " completed " + times + " times");
                }
            }
            if (completed.size() != posted.size()) {
                failures.add(name + ": " + completed.size() + " tags completed, " + posted.size() + " posted");
            }
            if (inbox != null) {
                int[] next = new int[SENDERS];
                for (int slot = 0; slot < slotSender.length; slot++) {
                    int sender = slotSender[slot];
                    if (slotSequence[slot] != next[sender]++) {
                        failures.add(name + ": receive " + slot + " got message " + slotSequence[slot] + " of sender "
                                + sender + " out of order");
                        break;
                    }
                }
            }
            byte[] placed = Proof.bytes(peer.target.buffer(), 0, REGION);
            if (!Arrays.equals(expectedPeerTarget, placed)) {
                failures.add(name + ": the peer's Write target differs at " + Arrays.mismatch(expectedPeerTarget, placed));
            }
        }

        private List<Long> missing() {
            List<Long> missing = new ArrayList<>();
            for (long tag : posted) {
                if (!completed.containsKey(tag)) {
                    missing.add(tag);
                }
            }
            return missing;
        }

        private void acquire(Semaphore credits, int count, String what) throws InterruptedException {
            if (!credits.tryAcquire(count, WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError(name + ": no " + what + " within " + WAIT_SECONDS + " s; " + completions.get()
                        + " completions; missing: " + missing() + "\n" + Proof.threadDump());
            }
        }
    }

    /** Message {@code j} of a sender: its sender and number, its length, then bytes derived from them. */
    private static ByteBuffer message(long seed, int sender, int j) {
        int length = messageLength(seed, sender, j);
        ByteBuffer message = ByteBuffer.allocate(length);
        message.putInt(sender).putInt(j).putInt(length);
        message.put(Proof.random(length - 12, seed * 1_000_003 + sender * 1_009L + j));
        return message.flip();
    }

    private static int messageLength(long seed, int sender, int j) {
        return 12 + new SplittableRandom(seed * 7 + sender * 131L + j).nextInt(MESSAGE_MAX - 12 + 1);
    }
}
