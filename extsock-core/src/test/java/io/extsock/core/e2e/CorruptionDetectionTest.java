package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.IwarpOptions;
import io.extsock.core.Tier;
import io.extsock.testkit.fault.FaultPlan;
import io.extsock.testkit.fault.FaultReport;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * With CRC on, every octet the network flips inside an FPDU is caught (RFC 5044 section 8: the
 * receiver answers with an LLP Terminate, MPA CRC error, layer 2 type 0 code 0x02) and not one
 * corrupted octet reaches memory or a stream. A {@code FaultRelay} flips one octet of one FPDU,
 * found by a pattern in its payload (or, for the header-only Read Request, by the sink STag),
 * for each operation kind: Send, RDMA Write, Read Request, Read Response and stream data (and a
 * stream write large enough to be read straight into the stream's receive buffer before its CRC
 * is checked, {@code SegmentSink.speculativeDestination}); across
 * the FPDU's DDP/RDMAP header, its payload and its CRC; with the bytes as TCP delivers them and
 * re-cut into 1-octet to 64 KiB pieces.
 *
 * <p>Payload octets are 0x40-0x7F and the relay XORs 0x80, so a corrupted octet can never pass
 * for a right one or for the untouched memory (0x00) around it: any 0x80-0xFF octet delivered
 * counts as corruption. The MPA length field (the FPDU's first two octets) is left out: a
 * length made longer waits for octets the sender may never send, a stall TCP itself has too.
 */
@Tag("stress")
@Timeout(600)  // per kind; a hang fails its case sooner (every wait in a case is bounded)
class CorruptionDetectionTest {

    private static final Tier TIER = Tier.current();
    private static final CompletionCause CRC_TERMINATE_RECEIVED = CompletionCause.terminateReceived(2, 0, 0x02);
    private static final CompletionCause CRC_TERMINATE_SENT = CompletionCause.terminateSent(2, 0, 0x02);
    private static final int XOR = 0x80;
    private static final int PAYLOAD = 3000;
    /**
     * A stream write of two Sends of 16 KiB and more, which the engine may read straight into the
     * stream's receive buffers before their CRC is checked (when an FPDU is not all in one read).
     */
    private static final int LARGE_PAYLOAD = 100_000;
    /** DDP control and RDMAP control, reserved, QN, MSN, MO (RFC 5041 section 4.3): an untagged header. */
    private static final int UNTAGGED_HEADER = 18;
    /** DDP control and RDMAP control, STag, TO (RFC 5041 section 4.2): a tagged header. */
    private static final int TAGGED_HEADER = 14;
    /** Sink STag, sink TO, size, source STag, source TO (RFC 5040 section 4.4). */
    private static final int READ_REQUEST_BODY = 28;
    private static final int CRC = 4;
    /** The IWARP_MODE stream's header at the start of each Send's payload (kind, flags, credits). */
    private static final int STREAM_HEADER = 4;

    private final List<String> failures = new ArrayList<>();
    private int injected;
    private int detected;
    private long corruptedOctetsDelivered;

    enum Kind {
        SEND, WRITE, READ_REQUEST, READ_RESPONSE, STREAM, LARGE_STREAM;

        int payloadLength() {
            return this == LARGE_STREAM ? LARGE_PAYLOAD : PAYLOAD;
        }
    }

    /** One kind at a time, so that the long run (every octet) stays within each kind's timeout. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    @DisplayName("RFC 5044 8: every flipped octet of a Send, Write, Read Request, Read Response or stream FPDU is caught")
    void everyCorruptionIsDetectedAndNothingCorruptIsDelivered(Kind kind) throws Exception {
        long started = System.nanoTime();
        for (int distance : distances(kind)) {
            for (FaultPlan cut : cuts(kind, distance)) {
                corruptOnce(kind, distance, cut);
            }
        }
        TIER.figures("corruption of %s: %d injected, %d answered with the MPA CRC Terminate, %d corrupted octets"
                + " delivered, %.1f s", kind, injected, detected, corruptedOctetsDelivered,
                (System.nanoTime() - started) / 1e9);
        failures.forEach(System.out::println);
        assertTrue(failures.isEmpty(), failures.size() + " of " + injected + " corruptions went wrong:\n"
                + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
        assertEquals(injected, detected);
        assertEquals(0, corruptedOctetsDelivered);
    }

    /** Distances from the pattern: every header octet after the length field, payload samples, the CRC. */
    private static int[] distances(Kind kind) {
        IntStream header;
        IntStream body;
        IntStream crc;
        switch (kind) {
            case READ_REQUEST:  // the pattern is the sink STag, the body's first field
                header = IntStream.range(-UNTAGGED_HEADER, 0);
                body = IntStream.range(0, READ_REQUEST_BODY);
                crc = IntStream.range(READ_REQUEST_BODY, READ_REQUEST_BODY + CRC);
                break;
            case WRITE:
            case READ_RESPONSE:
                header = IntStream.range(-TAGGED_HEADER, 0);
                body = payloadSamples(PAYLOAD);
                crc = IntStream.range(PAYLOAD, PAYLOAD + CRC);
                break;
            case STREAM:  // the stream's own 4-octet header sits between DDP's and the pattern
            case LARGE_STREAM:
                header = IntStream.range(-UNTAGGED_HEADER - STREAM_HEADER, 0);
                body = payloadSamples(kind.payloadLength());
                crc = IntStream.empty();  // where a stream write's FPDU ends depends on the stream's framing
                break;
            default:
                header = IntStream.range(-UNTAGGED_HEADER, 0);
                body = payloadSamples(PAYLOAD);
                crc = IntStream.range(PAYLOAD, PAYLOAD + CRC);
        }
        return IntStream.concat(IntStream.concat(header, body), crc).toArray();
    }

    /**
     * Payload positions to flip: a sample; in the stress tier every 5th octet (every 250th of a
     * large write); in the long run every octet (every 100th of a large write, so that its case
     * ends within its timeout).
     */
    private static IntStream payloadSamples(int length) {
        if (!TIER.scaledUp()) {
            return IntStream.of(0, 1, 7, 100, 1024, 2047, length / 2, length - 1);
        }
        int step = length > PAYLOAD ? TIER.pick(0, 250, 100) : TIER.pick(0, 5, 1);
        return IntStream.iterate(0, i -> i < length, i -> i + step);
    }

    /**
     * As TCP delivers, and (for a sample of positions, or all in the stress tier and the long
     * run) re-cut into random pieces; in the long run also into pieces of one octet (of 1 to 64
     * for a large write: 100 KB in single octets takes seconds a case).
     */
    private static List<FaultPlan> cuts(Kind kind, int distance) {
        List<FaultPlan> cuts = new ArrayList<>(List.of(FaultPlan.none()));
        if (TIER.scaledUp() || Math.floorMod(distance, 5) == 0) {
            cuts.add(FaultPlan.none().segments(1, 65536, distance));
        }
        if (TIER == Tier.LONG) {
            cuts.add(FaultPlan.none().segments(1, kind == Kind.LARGE_STREAM ? 64 : 1, 0));
        }
        return cuts;
    }

    private void corruptOnce(Kind kind, int distance, FaultPlan cut) throws Exception {
        byte[] payload = payload(kind.ordinal() * 100_000L + distance, kind.payloadLength());
        String where = kind + " at " + distance + " " + cut;
        boolean downstream = kind == Kind.READ_RESPONSE;
        try {
            if (kind == Kind.STREAM || kind == Kind.LARGE_STREAM) {
                streamCorruption(payload, distance, cut, where);
            } else {
                verbsCorruption(kind, payload, distance, cut, downstream, where);
            }
        } catch (Exception | AssertionError e) {
            failures.add(where + ": " + e);
        }
    }

    private void verbsCorruption(Kind kind, byte[] payload, int distance, FaultPlan cut, boolean downstream,
                                 String where) throws Exception {
        // The header-only Read Request is found by its size field (an odd size nothing else
        // carries), 12 octets into its body; every other FPDU by its payload's first octets.
        byte[] pattern = kind == Kind.READ_REQUEST ? readRequestPattern() : java.util.Arrays.copyOf(payload, 16);
        FaultPlan corrupting = cut.corruptNear(pattern, 1, kind == Kind.READ_REQUEST ? distance - 12 : distance, XOR);
        FaultPlan upstream = downstream ? cut : corrupting;
        FaultPlan downstreamPlan = downstream ? corrupting : FaultPlan.none();
        try (IwarpSocketPair pair = throughRelay(upstream, downstreamPlan, false).open()) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            IwarpConnection corruptor = downstream ? server : client;  // sends the FPDU that gets flipped
            MemoryRegion watch = corruptor.register(ByteBuffer.allocateDirect(8), EnumSet.of(Access.LOCAL_WRITE));
            corruptor.post(new ReceiveRequest().tag(99).scatter(watch.slice(0, 8)));
            ByteBuffer delivered;
            switch (kind) {
                case SEND: {
                    MemoryRegion inbox = server.register(ByteBuffer.allocateDirect(PAYLOAD), EnumSet.of(Access.LOCAL_WRITE));
                    server.post(new ReceiveRequest().tag(1).scatter(inbox.slice(0, PAYLOAD)));
                    client.post(new SendRequest().tag(2).gather(source(client, payload).slice(0, PAYLOAD)));
                    delivered = inbox.buffer();
                    break;
                }
                case WRITE: {
                    MemoryRegion target = server.register(ByteBuffer.allocateDirect(PAYLOAD),
                            EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
                    client.post(new WriteRequest().tag(2).gather(source(client, payload).slice(0, PAYLOAD))
                            .target(target.remote()));
                    delivered = target.buffer();
                    break;
                }
                default: {  // READ_REQUEST, READ_RESPONSE
                    MemoryRegion exposed = server.register(ByteBuffer.allocateDirect(PAYLOAD).put(payload).flip(),
                            EnumSet.of(Access.REMOTE_READ));
                    MemoryRegion sink = client.register(ByteBuffer.allocateDirect(PAYLOAD), EnumSet.of(Access.LOCAL_WRITE));
                    int size = kind == Kind.READ_REQUEST ? READ_SIZE : PAYLOAD;
                    client.post(new ReadRequest().tag(2).source(exposed.remote().slice(0, size))
                            .sink(sink.slice(0, size)));
                    delivered = sink.buffer();
                }
            }
            WorkCompletion watched;
            do {  // the corruptor's own Send or Write may complete first: it was handed to TCP
                watched = corruptor.completions().take(20, TimeUnit.SECONDS);
            } while (watched != null && watched.tag() != 99);
            FaultReport report = downstream ? pair.relay().downstream() : pair.relay().upstream();
            judge(where, report, watched, delivered, payload);
        }
    }

    /** An odd size, to be found in the Read Request: 0x00000BA3. */
    private static final int READ_SIZE = PAYLOAD - 0x15;

    private static byte[] readRequestPattern() {
        return ByteBuffer.allocate(4).putInt(READ_SIZE).array();
    }

    private void streamCorruption(byte[] payload, int distance, FaultPlan cut, String where) throws Exception {
        FaultPlan upstream = cut.corruptNear(java.util.Arrays.copyOf(payload, 16), 1, distance, XOR);
        try (IwarpSocketPair pair = throughRelay(upstream, FaultPlan.none(), true).open()) {
            pair.accepted().setSoTimeout(20_000);  // a hang fails the case instead of the run
            pair.client().setSoTimeout(20_000);
            // A large write may still be under way (its second Send) when the server's Terminate
            // comes back: then the write itself fails, naming the CRC.
            IOException writeEnded = null;
            try {
                pair.client().getOutputStream().write(payload);
            } catch (IOException e) {
                writeEnded = e;
            }
            InputStream in = pair.accepted().getInputStream();
            byte[] read = new byte[payload.length];
            int total = 0;
            try {
                int n;
                while (total < payload.length && (n = in.read(read, total, payload.length - total)) > 0) {
                    total += n;
                }
            } catch (IOException expected) {
                // the corruption ended the connection: what was read before must be right
            }
            FaultReport report = pair.relay().upstream();
            injected += report.corruptionsApplied();
            corruptedOctetsDelivered += countCorrupted(ByteBuffer.wrap(read, 0, total), payload, total);
            if (report.corruptionsApplied() != 1) {
                failures.add(where + ": the relay flipped " + report.corruptionsApplied() + " octets " + report);
                return;
            }
            // The client learns of it by the server's Terminate: its write or next read fails, naming the CRC.
            IOException ended = writeEnded;
            if (ended == null) {
                try {
                    pair.client().getInputStream().read();
                } catch (IOException e) {
                    ended = e;
                }
            }
            if (ended != null && String.valueOf(ended.getMessage()).contains("CRC") && total < payload.length) {
                detected++;
            } else {
                failures.add(where + ": expected the client's write or read to fail naming the CRC, after a short"
                        + " server read;"
                        + " read " + total + ", client " + ended);
            }
        }
    }

    private void judge(String where, FaultReport report, WorkCompletion watched, ByteBuffer delivered, byte[] sent) {
        injected += report.corruptionsApplied();
        corruptedOctetsDelivered += countCorrupted(delivered, sent, delivered.capacity());
        if (report.corruptionsApplied() != 1) {
            failures.add(where + ": the relay flipped " + report.corruptionsApplied() + " octets " + report);
        } else if (watched != null && CRC_TERMINATE_RECEIVED.equals(watched.cause())) {
            detected++;
        } else {
            failures.add(where + ": expected the corruptor's connection to end by the MPA CRC Terminate, got "
                    + watched);
        }
    }

    /** Octets delivered that are neither what was sent nor the untouched 0x00. */
    private static long countCorrupted(ByteBuffer delivered, byte[] sent, int length) {
        long corrupted = 0;
        for (int i = 0; i < length; i++) {
            byte octet = delivered.get(i);
            if (octet != 0 && octet != sent[i]) {
                corrupted++;
            }
        }
        return corrupted;
    }

    private static MemoryRegion source(IwarpConnection connection, byte[] payload) throws IOException {
        return connection.register(ByteBuffer.allocateDirect(payload.length).put(payload).flip(), Set.of());
    }

    /** 0x40-0x7F octets, different for each case so that a pattern is found once. */
    private static byte[] payload(long seed, int length) {
        byte[] payload = new byte[length];
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        for (int i = 0; i < length; i++) {
            payload[i] = (byte) (0x40 + random.nextInt(0x40));
        }
        return payload;
    }

    /** Through a FaultRelay with these plans, CRC on (so that corruption is caught), streams as asked. */
    private static IwarpSocketPair.Builder throughRelay(FaultPlan upstream, FaultPlan downstream, boolean streams) {
        return IwarpSocketPair.builder().through(upstream, downstream)
                .option(IwarpOptions.CRC, true).option(IwarpOptions.STREAMS, streams);
    }
}
