package io.extsock.examples.perf;

import io.extsock.examples.cli.Completions;
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
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * send_bw with -b: both ends Send at once on one connection, each receiving the other's Sends
 * into one pool of Receives, and the client reports the sum, as perftest does.
 *
 * <p>iWARP has no receiver-not-ready retry: a Send that finds no Receive ends the connection. So
 * each end spends one credit per Send of any kind (it starts with as many as the peer posted,
 * the same count on both ends), and returns the Receives it posted again in control messages:
 * CREDIT, END (the peer's last message arrived; how many did) and, from the server, RESULT (its
 * figures). Every control message carries the credits owed, so none is lost. Data Sends keep one
 * credit back; a control message may take the last. With at least 3 Receives and control
 * messages sent once 2 or more credits are owed, this cannot deadlock: the last control message
 * sent returned everything its sender owed, so its receiver holds all its credits again; and it
 * cannot ping-pong forever, since a control message is answered only once 2 are owed.
 *
 * <p>A data message's first byte is 0, or 1 on the last; a control message's is its type.
 */
final class DuplexSendPerf implements PerfRunner {

    /** Control Sends an end may have in flight, beside its data Sends, in one send queue. */
    static final int CONTROL_SLOTS = 16;
    /** The most data Sends an end keeps in flight: the send queue less what control may take. */
    static final int MAX_DATA_DEPTH = IwarpConnection.SEND_QUEUE_DEPTH - CONTROL_SLOTS;
    /** A control message: type, credits returned, count (END: messages received), figures (RESULT). */
    private static final int CONTROL_LENGTH = 1 + 8 + 8 + PerfResult.Figures.ENCODED_LENGTH;
    private static final byte CREDIT = 'C';
    private static final byte END = 'E';
    private static final byte RESULT = 'R';
    /** Control Sends are tagged from here (plus their slot); data Sends 0, or 1 for the last. */
    private static final long CONTROL_TAG = 1 << 20;

    private final PerfParameters run;
    private final boolean client;
    private MemoryRegion inbox;
    private MemoryRegion outbox;
    private MemoryRegion control;
    private int receiveSlots;
    private int slotSize;

    DuplexSendPerf(PerfParameters run, boolean client) {
        this.run = run;
        this.client = client;
    }

    /** The fewest Receives an end may post (see the class comment). */
    static final int LEAST_RECEIVES = 3;

    /** Receives each end posts by default: up to 128, at most 64 MiB of them, and at least {@link #LEAST_RECEIVES}. */
    static int receives(int size) {
        return (int) Math.max(LEAST_RECEIVES, Math.min(128, (64L << 20) / size));
    }

    @Override
    public IwarpSetup setup() {
        return verbs -> {
            receiveSlots = SendPerf.receivesPosted(run);
            slotSize = Math.max(run.size(), CONTROL_LENGTH);
            inbox = verbs.register(ByteBuffer.allocateDirect(receiveSlots * slotSize), EnumSet.of(Access.LOCAL_WRITE));
            outbox = verbs.register(ByteBuffer.allocateDirect(2 * run.size()), Set.of());
            outbox.buffer().put(run.size(), (byte) 1);  // slot 1 is the last message
            control = verbs.register(ByteBuffer.allocateDirect(CONTROL_SLOTS * CONTROL_LENGTH), Set.of());
            for (int slot = 0; slot < receiveSlots; slot++) {
                repost(verbs, slot);
            }
        };
    }

    @Override
    public PerfResult client(PerfLink link) throws IOException, InterruptedException {
        try {
            return both(link.verbs());  // we took the server's RESULT, its last message: we close first
        } finally {
            close();
        }
    }

    @Override
    public void server(PerfLink link) throws IOException, InterruptedException {
        try {
            both(link.verbs());
            awaitPeerClose(link.verbs());
        } finally {
            close();
        }
    }

    private void repost(IwarpConnection verbs, long slot) throws IOException {
        verbs.post(new ReceiveRequest().tag(slot).scatter(inbox.slice(slot * slotSize, slotSize)));
    }

    private PerfResult both(IwarpConnection verbs) throws IOException, InterruptedException {
        int size = run.size();
        SendRequest more = new SendRequest().tag(0).gather(outbox.slice(0, size));
        SendRequest last = new SendRequest().tag(1).gather(outbox.slice(size, size));
        int threshold = Math.max(2, receiveSlots / 4);
        int depth = run.depthOr(MAX_DATA_DEPTH);
        PerfClock clock = new PerfClock(run);
        long warmUp = clock.warmUp();
        Samples postTimes = new Samples(run.iterations());
        Samples completionTimes = new Samples(run.iterations());
        Samples latencies = new Samples(run.iterations());
        long credits = receiveSlots;  // the peer posted as many Receives as we did
        long owed = 0;
        long posted = 0;
        long completed = 0;
        long controlPosted = 0;
        long controlCompleted = 0;
        boolean stopped = false;
        long peerMessages = 0;
        long peerLastAt = -1;
        boolean endSent = false;
        long peerReceived = -1;
        long peerEndAt = 0;
        boolean resultSent = false;
        PerfResult.Figures peerFigures = null;
        PerfResult mine = null;
        while (true) {
            if (mine == null && stopped && completed == posted && endSent && peerReceived >= 0) {
                if (peerReceived != posted) {
                    throw new SocketException("the peer received " + peerReceived + " messages of " + posted);
                }
                // perftest's bidirectional time: until our Sends and the peer's have all arrived
                mine = PerfResult.bandwidth(run, completionTimes, Math.max(peerEndAt, peerLastAt) - clock.startNanos(),
                        latencies);
            }
            while (credits >= 1 && controlPosted - controlCompleted < CONTROL_SLOTS) {
                byte type;
                if (peerLastAt >= 0 && !endSent) {
                    type = END;
                    endSent = true;
                } else if (!client && mine != null && !resultSent) {
                    type = RESULT;
                    resultSent = true;
                } else if (owed >= threshold) {
                    type = CREDIT;
                } else {
                    break;
                }
                postControl(verbs, controlPosted++, type, owed, peerMessages, type == RESULT ? mine.figures() : null);
                credits--;
                owed = 0;
            }
            while (!stopped && credits >= 2 && posted - completed < depth) {  // one credit kept for control
                if (posted == warmUp) {
                    clock.start();
                }
                stopped = posted >= warmUp && clock.isLast(posted - warmUp);
                postTimes.add(System.nanoTime());
                verbs.post(stopped ? last : more);
                posted++;
                credits--;
            }
            if (mine != null && (client ? peerFigures != null : resultSent)) {
                return client ? mine.plus(peerFigures) : mine;
            }
            WorkCompletion done = Completions.next(verbs.completions());
            long now = System.nanoTime();
            if (done.opcode() == WorkOpcode.SEND) {
                if (done.tag() >= CONTROL_TAG) {
                    controlCompleted++;
                } else {
                    if (completed >= warmUp) {
                        completionTimes.add(now);
                        latencies.add(now - postTimes.get((int) completed));
                    }
                    completed++;
                }
                continue;
            }
            ByteBuffer message = inbox.buffer();
            int at = (int) done.tag() * slotSize;
            byte type = message.get(at);
            if (type == 0 || type == 1) {
                peerMessages++;
                if (type == 1) {
                    peerLastAt = now;
                }
            } else {
                credits += message.getLong(at + 1);
                if (type == END) {
                    peerReceived = message.getLong(at + 9);
                    peerEndAt = now;
                } else if (type == RESULT) {
                    peerFigures = PerfResult.Figures.readFrom(message.slice(at + 17, PerfResult.Figures.ENCODED_LENGTH));
                } else if (type != CREDIT) {
                    throw new SocketException("unknown perf message type " + type);
                }
            }
            repost(verbs, done.tag());
            owed++;
        }
    }

    /** A control message from its own slot; the caller keeps at most CONTROL_SLOTS in flight. */
    private void postControl(IwarpConnection verbs, long number, byte type, long creditsReturned, long count,
                             PerfResult.Figures figures) throws IOException {
        int slot = (int) (number % CONTROL_SLOTS);
        int at = slot * CONTROL_LENGTH;
        ByteBuffer buffer = control.buffer();
        buffer.put(at, type).putLong(at + 1, creditsReturned).putLong(at + 9, count);
        if (figures != null) {
            figures.writeTo(buffer.slice(at + 17, PerfResult.Figures.ENCODED_LENGTH));
        }
        verbs.post(new SendRequest().tag(CONTROL_TAG + slot).gather(control.slice(at, CONTROL_LENGTH)));
    }

    /** The server's end, after its RESULT: the client closes first; its close flushes what we still have posted. */
    private static void awaitPeerClose(IwarpConnection verbs) throws InterruptedException {
        for (WorkCompletion c; (c = verbs.completions().take(30, TimeUnit.SECONDS)) != null && c.isSuccess(); ) {
            // our last Sends completing, and the client's last credits arriving
        }
    }

    private void close() {
        for (MemoryRegion region : new MemoryRegion[] {inbox, outbox, control}) {
            if (region != null) {
                region.close();
            }
        }
    }
}
