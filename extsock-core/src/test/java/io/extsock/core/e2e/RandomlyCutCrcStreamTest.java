package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.ddp.MessageSequenceNumbers;
import io.extsock.core.mpa.FpduDeframer;
import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.mpa.MpaFrame;
import io.extsock.core.mpa.MpaFrameParser;
import io.extsock.core.mpa.MpaFrameType;
import io.extsock.core.mpa.MpaNegotiation;
import io.extsock.core.mpa.MpaPreferences;
import io.extsock.core.mpa.ResponderDecision;
import io.extsock.core.mpa.RtrKind;
import io.extsock.core.rdmap.MessageWriter;
import io.extsock.core.rdmap.RdmapOpcode;
import io.extsock.core.rdmap.RdmapSegmentHeader;
import io.extsock.core.rdmap.ReadRequestHeader;
import io.extsock.core.rdmap.SegmentReader;
import io.extsock.core.rdmap.SegmentSink;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpStatistics;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.EnumSet;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Our receive path with CRCs on, fed a valid FPDU stream that arrives cut at random points: no
 * FPDU may fail its CRC and every octet must land where it was sent.
 *
 * <p>The far end is a raw loopback socket scripted here, which answers our MPA Request as siw
 * would (revision 2, CRC, no extsock hello) and then writes FPDUs framed by our own encoder:
 * mostly siw's 1450-octet ULPDUs (RDMA Writes of 64 KiB, as rping's, into a registered region),
 * between small FPDUs (Sends, Read Requests, ULPDUs of any length) and large ones (up to 65535
 * octets, which our engine reads straight into the FPDU hold). The octets go out in chunks of
 * random size, from 1 octet to 70,000, often with a pause after one, so that our engine's socket
 * reads (staged, and direct into the hold) end at every point of an FPDU. The application waits
 * inline for completions, and sometimes lets the progress thread take the reading back, so both
 * threads read the same stream in turns.
 *
 * <p>Every Write is followed by a Send naming its range and pattern; the application checks the
 * range octet by octet before the peer may write there again. Sends carry a pattern checked the
 * same way; Read Responses are checked by the peer. The engine's CRC Terminate would show as a
 * flushed completion naming the MPA CRC error.
 *
 * <p>A few seconds by default; {@code -Dextsock.long=true} runs two minutes. {@code
 * -Dextsock.cutStream.seed=N} repeats a run's choices (the timing of the reads still varies);
 * {@code -Dextsock.cutStream.millis=N} sets the length.
 */
@Timeout(900)  // a hang guard only: a long run sends for two minutes
class RandomlyCutCrcStreamTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final long RUN_MILLIS =
            Long.getLong("extsock.cutStream.millis", Boolean.getBoolean("extsock.long") ? 120_000 : 4_000);
    private static final long SEED = Long.getLong("extsock.cutStream.seed", System.nanoTime());
    /** Any wait on the other side longer than this is a stall, reported with the seed. */
    private static final long STALL_SECONDS = 30;

    /** siw's ULPDU when its FPDUs fill a 1500-octet MTU's segment: FPDUs of 1456 octets. */
    private static final int SIW_MULPDU = 1450;
    private static final int SIW_FPDU = 1456;
    /** From this ULPDU length on, our reader counts an FPDU as large (SegmentReader.LARGE_ULPDU). */
    private static final int LARGE_ULPDU = 16 * 1024;
    private static final int MAX_ULPDU = 65535;

    private static final int SLOTS = 8;
    private static final int SLOT_SIZE = 128 * 1024;
    private static final int RECEIVES = 16;
    private static final int RECEIVE_SIZE = 64 * 1024;
    private static final int SOURCE_SIZE = 256 * 1024;
    private static final long SOURCE_SEED = 0x5EED_50C0L;
    private static final int PEER_SINK_STAG = 0x51A4C0DE;
    private static final int READS_OUTSTANDING = 4;

    /** Send kinds: the first int of every Send's payload. */
    private static final int WRITE_DONE = 1;
    private static final int DATA = 2;
    private static final int END = 3;
    /** A Send's own header: kind and three ints (WRITE_DONE: slot, offset, length; then seed as a long). */
    private static final int SEND_HEADER = 24;

    @Test
    void aValidCrcStreamCutAtRandomPointsIsReceivedWhole() throws Exception {
        String run = "seed " + SEED + " (-Dextsock.cutStream.seed=" + SEED + ")";
        try (ServerSocket listener = new ServerSocket();
             ExtendedSocket client = new ExtendedSocket();
             ScriptedPeer peer = new ScriptedPeer(new Random(SEED))) {
            // A small window at the peer, which also reads slowly now and then: our Read Responses
            // meet backpressure, so transmits wait and resume while the stream comes in.
            listener.setReceiveBufferSize(32 * 1024);
            listener.bind(new InetSocketAddress(LOOPBACK, 0), 1);
            Thread accepting = peer.acceptInBackground(listener);
            client.setOption(IwarpOptions.STREAMS, false);
            client.setOption(IwarpOptions.CRC, true);
            client.setOption(IwarpOptions.IWARP_MODE, true);
            client.connect(listener.getLocalSocketAddress(), 10_000);
            accepting.join(TimeUnit.SECONDS.toMillis(STALL_SECONDS));
            assertNull(peer.failure.get(), () -> run + ": the scripted peer's setup failed: " + peer.failure.get());
            assertTrue(peer.agreement.crc(), "CRCs were agreed");

            IwarpConnection verbs = client.iwarp();
            MemoryRegion writes = verbs.register(ByteBuffer.allocateDirect(SLOTS * SLOT_SIZE),
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
            MemoryRegion source = verbs.register(ByteBuffer.allocateDirect(SOURCE_SIZE), EnumSet.of(Access.REMOTE_READ));
            for (int i = 0; i < SOURCE_SIZE; i++) {
                source.buffer().put(i, pattern(SOURCE_SEED, i));
            }
            MemoryRegion inbox = verbs.register(ByteBuffer.allocateDirect(RECEIVES * RECEIVE_SIZE),
                    EnumSet.of(Access.LOCAL_WRITE));
            for (int r = 0; r < RECEIVES; r++) {
                verbs.post(receive(inbox, r));
            }
            peer.startSending(writes.stag(), writes.remote().offset(), source.stag(), source.remote().offset());

            Random pauses = new Random(SEED ^ 0x7A11L);
            long writesChecked = 0;
            long sendsChecked = 0;
            long octetsChecked = 0;
            ByteBuffer written = writes.buffer();
            while (true) {
                WorkCompletion done = verbs.completions().take(STALL_SECONDS, TimeUnit.SECONDS);
                assertNotNull(done, () -> run + ": nothing completed for " + STALL_SECONDS + " s; " + peer.state());
                if (!done.isSuccess()) {
                    fail(run + ": " + done + "; " + peer.state());
                }
                assertEquals(WorkOpcode.RECEIVE, done.opcode(), done::toString);
                int r = (int) done.tag();
                ByteBuffer message = inbox.buffer().slice(r * RECEIVE_SIZE, (int) done.byteLength());
                int kind = message.getInt(0);
                if (kind == END) {
                    assertEquals(message.getLong(4), writesChecked, run + ": Writes checked");
                    assertEquals(message.getLong(12), sendsChecked, run + ": data Sends checked");
                    break;
                }
                int slot = message.getInt(4);
                int offset = message.getInt(8);
                int length = message.getInt(12);
                long seed = message.getLong(16);
                if (kind == WRITE_DONE) {
                    for (int i = 0; i < length; i++) {
                        if (written.get(offset + i) != pattern(seed, i)) {
                            fail(run + ": the Write of " + length + " octets at " + offset + " differs at its octet "
                                    + i + "; " + peer.state());
                        }
                    }
                    writesChecked++;
                } else {
                    assertEquals(DATA, kind, run + ": a Send of an unknown kind");
                    assertEquals(SEND_HEADER + length, message.remaining(), run + ": a data Send's length");
                    for (int i = 0; i < length; i++) {
                        if (message.get(SEND_HEADER + i) != pattern(seed, i)) {
                            fail(run + ": a Send of " + length + " octets differs at its octet " + i + "; "
                                    + peer.state());
                        }
                    }
                    sendsChecked++;
                }
                octetsChecked += length;
                verbs.post(receive(inbox, r));  // before the credit: the peer's next Send needs it
                peer.sendCredits.release();
                if (kind == WRITE_DONE) {
                    peer.freeSlots.add(slot);
                }
                if (pauses.nextInt(20) == 0) {
                    // Nobody waits for a while: the progress thread takes the reading back (after 1 ms),
                    // so the two read the stream in turns, an FPDU cut between them now and then.
                    Thread.sleep(2);
                }
            }
            peer.awaitDone();
            assertNull(peer.failure.get(), () -> run + ": " + peer.state());
            assertEquals(peer.readsSent, peer.readsChecked, run + ": Read Responses checked by the peer");
            IwarpStatistics statistics = verbs.statistics();
            assertEquals(0, statistics.errors(), () -> run + ": " + statistics);
            assertTrue(writesChecked > 0 && peer.cuts.cutsInsideFpdus() > 0, () -> run + ": the run cut no FPDU; "
                    + peer.cuts.summary());
            System.out.printf("%s: %d Writes, %d data Sends (%,d octets checked), %d Reads answered; %s;"
                            + " our engine made %,d socket reads of %,d octets%n",
                    run, writesChecked, sendsChecked, octetsChecked, peer.readsChecked, peer.cuts.summary(),
                    statistics.socketReads(), statistics.bytesReceived());
        }
    }

    private static ReceiveRequest receive(MemoryRegion inbox, int r) {
        return new ReceiveRequest().tag(r).scatter(inbox.slice((long) r * RECEIVE_SIZE, RECEIVE_SIZE));
    }

    /** The octet at {@code index} of the payload made from {@code seed}: no two payloads alike. */
    static byte pattern(long seed, long index) {
        long x = seed * 0x9E3779B97F4A7C15L + index;
        x ^= x >>> 31;
        x *= 0xBF58476D1CE4E5B9L;
        x ^= x >>> 29;
        return (byte) x;
    }

    /**
     * The far end: a plain socket that speaks MPA as siw's responder does and then sends FPDUs
     * framed by our encoder, in random chunks; it reads what our engine sends back (the RTR, Read
     * Responses) with our decoder and checks it.
     */
    private static final class ScriptedPeer implements AutoCloseable {

        private final Random random;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Semaphore sendCredits = new Semaphore(RECEIVES);
        final BlockingQueue<Integer> freeSlots = new LinkedBlockingQueue<>();
        private final Semaphore readCredits = new Semaphore(READS_OUTSTANDING);
        private final CountDownLatch readyToReceive = new CountDownLatch(1);
        private final GatherWrite gather = new GatherWrite(512, 256 * 1024);
        final CutCoverage cuts = new CutCoverage();
        private final MessageSequenceNumbers msns = new MessageSequenceNumbers();

        private Socket socket;
        private InputStream in;
        private OutputStream out;
        private ByteBuffer readAhead;
        MpaAgreement agreement;
        private FpduFramer framer;
        private Thread reader;
        private Thread sender;
        private volatile boolean ending;

        /** Octets framed and not yet written: {@code pending[start, end)}. */
        private byte[] pending = new byte[1 << 20];
        private int start;
        private int end;
        private long streamWritten;

        volatile long readsSent;
        volatile long readsChecked;
        private volatile long writesSent;
        private volatile long sendsSent;

        ScriptedPeer(Random random) {
            this.random = random;
            for (int s = 0; s < SLOTS; s++) {
                freeSlots.add(s);
            }
        }

        Thread acceptInBackground(ServerSocket listener) {
            Thread thread = new Thread(() -> {
                try {
                    negotiate(listener.accept());
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "scripted-peer-setup");
            thread.start();
            return thread;
        }

        /** Answers the Request as siw does: revision 2, CRC, a zero-length Write RTR, no private data. */
        private void negotiate(Socket accepted) throws Exception {
            socket = accepted;
            socket.setTcpNoDelay(true);
            in = socket.getInputStream();
            out = socket.getOutputStream();
            ByteBuffer staged = ByteBuffer.allocate(4096).flip();
            MpaFrameParser parser = new MpaFrameParser(MpaFrameType.REQUEST);
            MpaFrame request;
            while ((request = parser.parse(staged)) == null) {
                staged.compact();
                int n = in.read(staged.array(), staged.position(), staged.remaining());
                if (n < 0) {
                    throw new IOException("the engine closed during MPA setup");
                }
                staged.position(staged.position() + n).flip();
            }
            MpaPreferences siwLike = MpaPreferences.builder().ird(128).ord(128)
                    .rtrKinds(EnumSet.of(RtrKind.ZERO_LENGTH_WRITE)).requestCrc(true).build();
            ResponderDecision decision = MpaNegotiation.respond(siwLike, request);
            if (!(decision.outcome() instanceof MpaAgreement agreed)) {
                throw new IllegalStateException("MPA setup failed: " + decision.outcome());
            }
            out.write(decision.reply().toBytes());
            out.flush();
            agreement = agreed;
            framer = new FpduFramer(agreed.crc(), agreed.sendMarkers());
            readAhead = staged;
            long readerSeed = random.nextLong();  // drawn here: the sender's draws stay the seed's alone
            reader = new Thread(() -> readReplies(readerSeed), "scripted-peer-reader");
            reader.start();
        }

        void startSending(int writeStag, long writeBase, int sourceStag, long sourceBase) {
            sender = new Thread(() -> {
                try {
                    send(writeStag, writeBase, sourceStag, sourceBase);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    closeQuietly();
                }
            }, "scripted-peer-sender");
            sender.start();
        }

        void awaitDone() throws InterruptedException {
            sender.join(TimeUnit.SECONDS.toMillis(STALL_SECONDS));
        }

        /** Ends the peer: its socket closes, its threads end. */
        @Override
        public void close() throws InterruptedException {
            ending = true;
            if (socket != null) {
                closeQuietly();
            }
            for (Thread thread : new Thread[] {sender, reader}) {
                if (thread != null) {
                    thread.interrupt();
                    thread.join(TimeUnit.SECONDS.toMillis(STALL_SECONDS));
                }
            }
        }

        String state() {
            Throwable failed = failure.get();
            return "the peer sent " + writesSent + " Writes, " + sendsSent + " Sends, " + readsSent + " Read Requests ("
                    + readsChecked + " answered), " + streamWritten + " octets" + (failed != null ? "; it failed: "
                    + failed : "");
        }

        private void send(int writeStag, long writeBase, int sourceStag, long sourceBase) throws Exception {
            // RFC 6581: the Responder sends nothing before the Initiator's RTR.
            if (!readyToReceive.await(STALL_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no RTR came");
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RUN_MILLIS);
            int readDepth = Math.min(READS_OUTSTANDING, agreement.ord());
            readCredits.drainPermits();
            readCredits.release(readDepth);
            while (System.nanoTime() - deadline < 0 && failure.get() == null) {
                int action = random.nextInt(100);
                if (action < 55) {
                    rdmaWrite(writeStag, writeBase);
                } else if (action < 80) {
                    dataSend();
                } else {
                    readRequest(sourceStag, sourceBase);
                }
            }
            acquire(readCredits, readDepth, "the Read Responses");  // every Read answered before the end
            ByteBuffer last = ByteBuffer.allocate(SEND_HEADER).putInt(END).putLong(writesSent).putLong(sendsSent);
            sendMessage(last.flip(), SIW_MULPDU);
            flushAll();
        }

        /** Like rping's: mostly 64 KiB, at any offset of a free slot; then a Send that names it. */
        private void rdmaWrite(int stag, long base) throws Exception {
            Integer slot = freeSlots.poll();
            if (slot == null) {
                flushAll();
                slot = freeSlots.poll(STALL_SECONDS, TimeUnit.SECONDS);
                if (slot == null) {
                    throw new IllegalStateException("no Write slot came free");
                }
            }
            int pick = random.nextInt(10);
            int length = pick < 6 ? MAX_ULPDU : pick < 9 ? 1 + random.nextInt(SLOT_SIZE) : 1 + random.nextInt(2000);
            int offset = slot * SLOT_SIZE + random.nextInt(SLOT_SIZE - length + 1);
            long seed = random.nextLong();
            MessageWriter writer = new MessageWriter(framer, randomMulpdu());
            writer.startWrite(stag, base + offset, new ByteBuffer[] {payload(seed, length, 0)}, 0, 1);
            append(writer);
            writesSent++;
            ByteBuffer notice = ByteBuffer.allocate(SEND_HEADER).putInt(WRITE_DONE).putInt(slot).putInt(offset)
                    .putInt(length).putLong(seed);
            sendMessage(notice.flip(), randomMulpdu());
        }

        private void dataSend() throws Exception {
            int pick = random.nextInt(10);
            int room = RECEIVE_SIZE - SEND_HEADER;
            int length = pick < 7 ? random.nextInt(200) : pick < 9 ? random.nextInt(4096) : random.nextInt(room + 1);
            long seed = random.nextLong();
            ByteBuffer message = payload(seed, length, SEND_HEADER);
            message.putInt(0, DATA).putInt(4, -1).putInt(8, -1).putInt(12, length).putLong(16, seed);
            sendMessage(message, randomMulpdu());
            sendsSent++;
        }

        /** A Read of our source region, its response checked by {@link #readReplies}. */
        private void readRequest(int sourceStag, long sourceBase) throws Exception {
            acquire(readCredits, 1, "a Read Response");
            int pick = random.nextInt(10);
            int size = pick < 6 ? MAX_ULPDU : pick < 8 ? 1 + random.nextInt(SOURCE_SIZE) : 1 + random.nextInt(64);
            long offset = random.nextInt(SOURCE_SIZE - size + 1);
            // The sink's tagged offset is the source offset: the response says which octets it carries.
            ReadRequestHeader read = new ReadRequestHeader().set(PEER_SINK_STAG, offset, size, sourceStag,
                    sourceBase + offset);
            MessageWriter writer = new MessageWriter(framer, randomMulpdu());
            writer.startReadRequest(msns.assign(DdpConstants.QN_READ_REQUEST), read);
            append(writer);
            readsSent++;
        }

        private void sendMessage(ByteBuffer message, int mulpdu) throws Exception {
            acquire(sendCredits, 1, "a posted Receive");
            MessageWriter writer = new MessageWriter(framer, mulpdu);
            writer.startSend(RdmapOpcode.SEND, 0, msns.assign(DdpConstants.QN_SEND), new ByteBuffer[] {message}, 0, 1);
            append(writer);
        }

        /** Mostly siw's 1450 octets; else any small length, or a large one for the hold's direct reads. */
        private int randomMulpdu() {
            int pick = random.nextInt(20);
            if (pick < 14) {
                return SIW_MULPDU;
            }
            if (pick < 17) {
                return 48 + random.nextInt(SIW_MULPDU - 48);
            }
            return 4096 + random.nextInt(MAX_ULPDU - 4096 + 1);
        }

        private static ByteBuffer payload(long seed, int length, int headroom) {
            ByteBuffer payload = ByteBuffer.allocate(headroom + length);
            for (int i = 0; i < length; i++) {
                payload.put(headroom + i, pattern(seed, i));
            }
            return payload;
        }

        /** Takes permits; before it may block, everything framed goes out (the engine needs it to free them). */
        private void acquire(Semaphore permits, int count, String what) throws Exception {
            if (permits.tryAcquire(count)) {
                return;
            }
            flushAll();
            if (!permits.tryAcquire(count, STALL_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("waited " + STALL_SECONDS + " s for " + what);
            }
        }

        /** Frames the message behind what is pending, then writes all but a random tail of it. */
        private void append(MessageWriter writer) throws IOException {
            boolean done;
            do {
                done = writer.writeTo(gather);
                room((int) gather.remaining());
                int from = end;
                for (int i = 0; i < gather.count(); i++) {
                    ByteBuffer slot = gather.buffers()[i];
                    int n = slot.remaining();
                    slot.get(pending, end, n);
                    end += n;
                }
                gather.reset();
                cuts.framed(pending, from, end, streamWritten + (from - start));
            } while (!done);
            writeChunks(random.nextInt(4096));
        }

        private void room(int n) {
            if (end + n <= pending.length) {
                return;
            }
            int held = end - start;
            byte[] into = held + n <= pending.length ? pending : new byte[Math.max(2 * pending.length, held + n)];
            System.arraycopy(pending, start, into, 0, held);
            pending = into;
            start = 0;
            end = held;
        }

        private void flushAll() throws IOException {
            writeChunks(0);
        }

        /** Writes pending octets in random chunks, often pausing after one, until {@code keep} are left. */
        private void writeChunks(int keep) throws IOException {
            while (end - start > keep) {
                int pick = random.nextInt(10);
                int bound = pick < 3 ? 64 : pick < 7 ? 1600 : pick < 9 ? 9000 : 70_000;
                int chunk = Math.min(1 + random.nextInt(bound), end - start);
                out.write(pending, start, chunk);
                out.flush();
                start += chunk;
                streamWritten += chunk;
                boolean pause = random.nextInt(3) == 0;
                cuts.cut(streamWritten, pause);
                if (pause) {
                    // Long enough for our engine to read what came: its read ends at this octet.
                    LockSupport.parkNanos(20_000 + random.nextInt(300_000));
                }
            }
        }

        /** Reads what our engine sends: the RTR, then Read Responses, each checked octet by octet. */
        private void readReplies(long seed) {
            ByteBuffer scratch = ByteBuffer.allocate(MAX_ULPDU);
            SegmentSink sink = new SegmentSink() {
                @Override
                public ByteBuffer segmentStarted(RdmapSegmentHeader header) {
                    RdmapOpcode opcode = header.opcode();
                    if (opcode == RdmapOpcode.RDMA_WRITE && header.ulpPayloadLength() == 0) {
                        return null;  // the RTR
                    }
                    if (opcode != RdmapOpcode.RDMA_READ_RESPONSE || header.ddp().stag() != PEER_SINK_STAG) {
                        throw new AssertionError("our engine sent " + header
                                + (opcode == RdmapOpcode.TERMINATE ? ": " + header.terminate() : ""));
                    }
                    return header.ulpPayloadLength() == 0 ? null : scratch.clear().limit(header.ulpPayloadLength());
                }

                @Override
                public void segmentComplete(RdmapSegmentHeader header) {
                    if (header.opcode() == RdmapOpcode.RDMA_WRITE) {
                        readyToReceive.countDown();
                        return;
                    }
                    long offset = header.ddp().taggedOffset();
                    for (int i = 0; i < header.ulpPayloadLength(); i++) {
                        if (scratch.get(i) != pattern(SOURCE_SEED, offset + i)) {
                            throw new AssertionError("a Read Response differs at source offset " + (offset + i));
                        }
                    }
                    if (header.ddp().last()) {
                        readsChecked++;
                        readCredits.release();
                    }
                }
            };
            SegmentReader decoder = new SegmentReader(new FpduDeframer(agreement.crc(), agreement.receiveMarkers()),
                    sink);
            ByteBuffer input = ByteBuffer.allocate(256 * 1024);
            Random slowly = new Random(seed);
            try {
                decoder.read(readAhead);
                while (true) {
                    int n = in.read(input.array(), 0, 1 + slowly.nextInt(input.capacity()));
                    if (n < 0) {
                        return;
                    }
                    decoder.read(input.clear().limit(n));
                    if (slowly.nextInt(40) == 0) {
                        Thread.sleep(1 + slowly.nextInt(3));  // a slow reader now and then, which the test is about
                    }
                }
            } catch (Throwable e) {
                if (!ending) {
                    failure.compareAndSet(null, e);
                    closeQuietly();
                }
            }
        }

        private void closeQuietly() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // the failure recorded says why
            }
        }
    }

    /**
     * Where the chunks cut the FPDUs: for siw's 1456-octet FPDUs, which of their octet positions
     * a chunk ended at (with and without a pause after it); for the others, how often.
     */
    private static final class CutCoverage {
        /** FPDUs framed and not yet wholly written: start offset and length in the stream. */
        private final ArrayDeque<long[]> unwritten = new ArrayDeque<>();
        private final BitSet siwCuts = new BitSet(SIW_FPDU);
        private final BitSet siwPausedCuts = new BitSet(SIW_FPDU);
        private long siwFpdus;
        private long smallFpdus;
        private long largeFpdus;
        private long cutsInSiwFpdus;
        private long cutsInSmallFpdus;
        private long cutsInLargeFpdus;
        private long cutsBetweenFpdus;
        private long chunks;

        /** Octets {@code [from, to)} of the buffer hold whole FPDUs, starting at stream offset {@code at}. */
        void framed(byte[] buffer, int from, int to, long at) {
            int position = from;
            while (position < to) {
                int ulpdu = (buffer[position] & 0xFF) << 8 | buffer[position + 1] & 0xFF;
                int size = 2 + ulpdu + FpduFramer.padLength(ulpdu) + 4;
                unwritten.add(new long[] {at + position - from, size, ulpdu});
                if (size == SIW_FPDU) {
                    siwFpdus++;
                } else if (ulpdu >= LARGE_ULPDU) {
                    largeFpdus++;
                } else {
                    smallFpdus++;
                }
                position += size;
            }
            if (position != to) {
                throw new AssertionError("the framer's output does not end at an FPDU's end");
            }
        }

        /** A chunk ended at this stream offset. */
        void cut(long offset, boolean paused) {
            chunks++;
            while (!unwritten.isEmpty() && unwritten.peek()[0] + unwritten.peek()[1] <= offset) {
                unwritten.poll();
            }
            long[] fpdu = unwritten.peek();
            if (fpdu == null || fpdu[0] == offset) {
                cutsBetweenFpdus++;
                return;
            }
            int inside = (int) (offset - fpdu[0]);
            if (fpdu[1] == SIW_FPDU) {
                cutsInSiwFpdus++;
                siwCuts.set(inside);
                if (paused) {
                    siwPausedCuts.set(inside);
                }
            } else if (fpdu[2] >= LARGE_ULPDU) {
                cutsInLargeFpdus++;
            } else {
                cutsInSmallFpdus++;
            }
        }

        long cutsInsideFpdus() {
            return cutsInSiwFpdus + cutsInSmallFpdus + cutsInLargeFpdus;
        }

        String summary() {
            return String.format("FPDUs sent: %,d of 1456 octets, %,d smaller, %,d large; %,d chunks cut %,d of the"
                            + " 1456-octet FPDUs (at %d of their 1455 inner positions, %d of them with a pause),"
                            + " %,d small ones, %,d large ones, and fell %,d times between FPDUs",
                    siwFpdus, smallFpdus, largeFpdus, chunks, cutsInSiwFpdus, siwCuts.cardinality(),
                    siwPausedCuts.cardinality(), cutsInSmallFpdus, cutsInLargeFpdus, cutsBetweenFpdus);
        }
    }
}
