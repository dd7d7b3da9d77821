package io.extsock.examples.perf;

import io.extsock.examples.cli.Completions;
import io.extsock.examples.cli.Units;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpSetup;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * send_lat and send_bw over the application's own Sends and Receives (IwarpOptions.STREAMS
 * false). Each end posts its Receives in the setup hook, before the peer's first byte.
 *
 * <p>Byte 0 of a message is 1 on the last one; the outbox has a slot for each value, so that
 * marking the last never changes a Send still in flight. iWARP has no receiver-not-ready
 * retry: a Send that finds no Receive ends the connection (RFC 5041 section 7.2). So in send_bw
 * the client spends one credit per Send and the server returns credits, in Sends of its own,
 * as it posts its Receives again.
 */
final class SendPerf implements PerfRunner {

    /** Receives the client keeps posted for the server's credit messages. */
    private static final int CREDIT_SLOTS = 16;
    /** A credit message: type (byte) and count (long). */
    private static final int CREDIT_LENGTH = 9;
    private static final byte CREDIT = 'C';
    private static final byte END = 'E';

    private final PerfParameters run;
    private final boolean client;
    private MemoryRegion inbox;
    private MemoryRegion outbox;
    private int receiveSlots;
    private int slotSize;
    /** Each slot's Receive, made once and posted again each time its message was taken, as perftest reposts its work requests. */
    private ReceiveRequest[] receives;

    SendPerf(PerfParameters run, boolean client) {
        this.run = run;
        this.client = client;
    }

    /**
     * send_bw's Sends in flight unless -t says otherwise: the whole send queue, since credits
     * come back before the sender takes its completions.
     */
    static final int DEPTH = IwarpConnection.SEND_QUEUE_DEPTH;
    /** The most Receives -r/--rx-depth may have each receiving end post: the engine's receive queue. */
    static final int MAX_RECEIVE_DEPTH = IwarpConnection.RECEIVE_QUEUE_DEPTH;
    /** The most memory -r/--rx-depth may have an end post as Receives: direct memory, registered at once. */
    static final long MAX_RECEIVE_BYTES = 1L << 30;

    /** Receives the server posts in send_bw by default: up to 128, and at most 64 MiB of them. */
    static int serverReceives(int size) {
        return (int) Math.max(2, Math.min(128, (64L << 20) / size));
    }

    /** The Receives the receiving end of a send_bw run posts (each end's, with -b): the sender's credits. */
    static int receivesPosted(PerfParameters run) {
        return run.receivesOr(run.bidirectional() ? DuplexSendPerf.receives(run.size()) : serverReceives(run.size()));
    }

    /**
     * Why an end cannot post {@code depth} Receives of {@code size} octets for send_bw, or null if
     * it can: checked by the client's command line and again by the server, which must not let a
     * client make it allocate without bound.
     */
    static String receiveDepthProblem(int depth, int size, boolean bidirectional) {
        int least = bidirectional ? DuplexSendPerf.LEAST_RECEIVES : 1;
        if (depth < least || depth > MAX_RECEIVE_DEPTH) {
            return "-r/--rx-depth must be from " + least + " to " + MAX_RECEIVE_DEPTH
                    + (bidirectional ? " with -b (each end's control messages need 3)" : "") + ": " + depth;
        }
        if ((long) depth * size > MAX_RECEIVE_BYTES) {
            return "-r/--rx-depth " + depth + " Receives of " + Units.bytes(size) + " would take "
                    + Units.bytes((long) depth * size) + " at the receiving end, more than its "
                    + Units.bytes(MAX_RECEIVE_BYTES) + ": post fewer, or send smaller messages";
        }
        return null;
    }

    @Override
    public IwarpSetup setup() {
        return verbs -> {
            boolean creditReceiver = client && !run.test().latency();
            slotSize = creditReceiver ? CREDIT_LENGTH : run.size();
            receiveSlots = run.test().latency() ? 2 : client ? CREDIT_SLOTS : receivesPosted(run);
            inbox = verbs.register(ByteBuffer.allocateDirect(receiveSlots * slotSize), EnumSet.of(Access.LOCAL_WRITE));
            int outboxSlot = client || run.test().latency() ? run.size() : CREDIT_LENGTH;
            int outboxSlots = client || run.test().latency() ? 2 : CREDIT_SLOTS;
            outbox = verbs.register(ByteBuffer.allocateDirect(outboxSlots * outboxSlot), Set.of());
            if (client || run.test().latency()) {
                outbox.buffer().put(run.size(), (byte) 1);  // slot 1 is the last message
            }
            receives = new ReceiveRequest[receiveSlots];
            for (int slot = 0; slot < receiveSlots; slot++) {
                receives[slot] = new ReceiveRequest().tag(slot).scatter(inbox.slice(slot * slotSize, slotSize));
                repost(verbs, slot);
            }
        };
    }

    private void repost(IwarpConnection verbs, long slot) throws IOException {
        verbs.post(receives[(int) slot]);
    }

    /** The Send of a message, from outbox slot 0 (more to come) or 1 (the last). */
    private SendRequest message(boolean last) {
        return new SendRequest().tag(last ? 1 : 0).gather(outbox.slice(last ? run.size() : 0, run.size()));
    }

    @Override
    public PerfResult client(PerfLink link) throws IOException, InterruptedException {
        try {
            return run.test().latency() ? pingPong(link.verbs()) : stream(link.verbs());
        } finally {
            close();
        }
    }

    @Override
    public void server(PerfLink link) throws IOException, InterruptedException {
        try {
            if (run.test().latency()) {
                echo(link.verbs());
            } else {
                receive(link.verbs());
            }
        } finally {
            close();
        }
    }

    private PerfResult pingPong(IwarpConnection verbs) throws IOException, InterruptedException {
        SendRequest more = message(false);
        SendRequest last = message(true);
        Samples roundTrips = new PerfClock(run).measure((i, isLast) -> {
            long start = System.nanoTime();
            verbs.post(isLast ? last : more);
            WorkCompletion reply = nextReceive(verbs);
            long roundTrip = System.nanoTime() - start;
            if (!isLast) {
                repost(verbs, reply.tag());  // after the last we close first: no more replies come
            }
            return roundTrip;
        });
        return PerfResult.latency(run, roundTrips, 2);
    }

    private void echo(IwarpConnection verbs) throws IOException, InterruptedException {
        SendRequest more = message(false);
        SendRequest last = message(true);
        while (true) {
            WorkCompletion ping = nextReceive(verbs);
            boolean isLast = inbox.buffer().get((int) ping.tag() * slotSize) == 1;
            repost(verbs, ping.tag());  // before the reply: the client's next ping needs it
            verbs.post(isLast ? last : more);
            if (isLast) {
                awaitPeerClose(verbs);
                return;
            }
        }
    }

    private PerfResult stream(IwarpConnection verbs) throws IOException, InterruptedException {
        SendRequest more = message(false);
        SendRequest last = message(true);
        PerfClock clock = new PerfClock(run);
        long warmUp = clock.warmUp();
        long credits = receivesPosted(run);  // what the server posted
        Samples postTimes = new Samples(run.iterations());
        Samples completionTimes = new Samples(run.iterations());
        Samples latencies = new Samples(run.iterations());
        long posted = 0;
        long completed = 0;
        long serverReceived = -1;
        boolean stopped = false;
        long elapsed = 0;
        int depth = run.depthOr(DEPTH);
        int batch = run.postList();
        List<SendRequest> list = new ArrayList<>(batch);
        CompletionBatch completions = new CompletionBatch();
        // END proves every message arrived: the clock stops there. Send completions may still be
        // on their way; every one is reaped, so that each measured message is counted.
        while (serverReceived < 0 || completed < posted) {
            // A list at a time (one message unless -l/--post_list), once credits and depth allow all of it.
            while (!stopped && credits >= batch && posted - completed + batch <= depth) {
                list.clear();
                while (list.size() < batch && !stopped) {
                    if (posted == warmUp) {
                        clock.start();
                    }
                    stopped = posted >= warmUp && clock.isLast(posted - warmUp);
                    postTimes.add(System.nanoTime());
                    list.add(stopped ? last : more);
                    posted++;
                    credits--;
                }
                if (list.size() == 1) {
                    verbs.post(list.get(0));
                } else {
                    verbs.post(list);
                }
            }
            int taken = completions.take(verbs.completions());
            long now = System.nanoTime();
            for (int i = 0; i < taken; i++) {
                if (completions.opcode(i) == WorkOpcode.SEND) {
                    if (completed >= warmUp) {
                        completionTimes.add(now);
                        latencies.add(now - postTimes.get((int) completed));
                    }
                    completed++;
                } else {
                    ByteBuffer message = inbox.buffer();
                    int at = (int) completions.tag(i) * slotSize;
                    long count = message.getLong(at + 1);
                    if (message.get(at) == END) {
                        elapsed = now - clock.startNanos();  // until the server had them all
                        serverReceived = count;
                    } else {
                        credits += count;
                        repost(verbs, completions.tag(i));
                    }
                }
            }
        }
        if (serverReceived != posted) {
            throw new SocketException("the server received " + serverReceived + " messages of " + posted);
        }
        return PerfResult.bandwidth(run, completionTimes, elapsed, latencies);
    }

    private void receive(IwarpConnection verbs) throws IOException, InterruptedException {
        int creditBatch = Math.max(1, receiveSlots / 4);
        long received = 0;
        long owed = 0;
        int creditSlot = 0;
        CompletionBatch completions = new CompletionBatch();
        while (true) {
            int taken = completions.take(verbs.completions());
            for (int i = 0; i < taken; i++) {
                if (completions.opcode(i) != WorkOpcode.RECEIVE) {
                    continue;  // one of our credit messages left
                }
                received++;
                long slot = completions.tag(i);
                boolean isLast = inbox.buffer().get((int) slot * slotSize) == 1;
                if (isLast) {  // what else this batch holds are our credit messages' completions
                    post(verbs, creditSlot, END, received);
                    awaitPeerClose(verbs);
                    return;
                }
                repost(verbs, slot);
                if (++owed >= creditBatch) {
                    post(verbs, creditSlot, CREDIT, owed);
                    creditSlot = (creditSlot + 1) % CREDIT_SLOTS;
                    owed = 0;
                }
            }
        }
    }

    /** A credit or end message from its own outbox slot (a slot is reused only long after its Send left). */
    private void post(IwarpConnection verbs, int slot, byte type, long count) throws IOException {
        int at = slot * CREDIT_LENGTH;
        outbox.buffer().put(at, type).putLong(at + 1, count);
        verbs.post(new SendRequest().gather(outbox.slice(at, CREDIT_LENGTH)));
    }

    private static WorkCompletion nextReceive(IwarpConnection verbs) throws SocketException, InterruptedException {
        while (true) {
            WorkCompletion completion = Completions.next(verbs.completions());
            if (completion.opcode() == WorkOpcode.RECEIVE) {
                return completion;
            }
        }
    }

    /**
     * The server's end, after its last message: the client closes first (see {@link
     * Sockets#awaitClose}); its close flushes the Receives we still have posted.
     */
    private static void awaitPeerClose(IwarpConnection verbs) throws InterruptedException {
        for (WorkCompletion c; (c = verbs.completions().take(30, TimeUnit.SECONDS)) != null && c.isSuccess(); ) {
            // completions of our own last Sends
        }
    }

    private void close() {
        if (inbox != null) {
            inbox.close();
        }
        if (outbox != null) {
            outbox.close();
        }
    }
}
