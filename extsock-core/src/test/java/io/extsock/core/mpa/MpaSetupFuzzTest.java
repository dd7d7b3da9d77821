package io.extsock.core.mpa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.core.ThreadAllocations;
import io.extsock.core.fuzz.Fuzz;
import io.extsock.core.fuzz.Mutator.Field;
import io.extsock.core.fuzz.Mutator;
import io.extsock.core.terminate.TerminateCause;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes connection setup, RFC 5044 section 7.1 and RFC 6581: mutants of valid Requests and
 * Replies (revision 1 and 2, enhanced or not, private data from none to 512 octets and, by
 * mutation of the length field, beyond) are parsed in random splits or one octet at a time
 * by {@link MpaFrameParser}, and what parses goes through the negotiation of the role that
 * receives it (a Responder's {@link MpaNegotiation#respond}, an Initiator's {@link
 * MpaNegotiation#complete}) with random preferences. Only an {@link MpaSetupException} naming
 * its Terminate may end an input; the parser must consume exactly the frame, and our own Reply
 * must parse again.
 */
@Tag("stress")
@Timeout(value = 30, unit = TimeUnit.MINUTES)  // per test: a hang fails; the long runs' largest surface takes minutes
class MpaSetupFuzzTest {

    private static final Field[] FIELDS = {
        new Field(MpaConstants.FLAGS_OFFSET, 1), new Field(MpaConstants.REVISION_OFFSET, 1),
        new Field(MpaConstants.PRIVATE_DATA_LENGTH_OFFSET, 2), new Field(MpaConstants.FRAME_HEADER_LENGTH, 2),
        new Field(MpaConstants.FRAME_HEADER_LENGTH + 2, 2), new Field(MpaConstants.FRAME_HEADER_LENGTH, 1),
        new Field(MpaConstants.FRAME_HEADER_LENGTH + 2, 1), new Field(0, 1), new Field(15, 1),
    };

    @Test
    void responderTakesHostileRequests() {
        Fuzz.Stats stats = Fuzz.run("MPA Request (Responder)", Fuzz.inputs(30_000),
                random -> mutant(random, MpaFrameType.REQUEST),
                (input, random) -> receive(input, random, MpaFrameType.REQUEST));
        assertTrue(stats.rejected > 0 && stats.accepted > 0, stats.toString());
    }

    @Test
    void initiatorTakesHostileReplies() {
        Fuzz.Stats stats = Fuzz.run("MPA Reply (Initiator)", Fuzz.inputs(30_000),
                random -> mutant(random, MpaFrameType.REPLY),
                (input, random) -> receive(input, random, MpaFrameType.REPLY));
        assertTrue(stats.rejected > 0 && stats.accepted > 0, stats.toString());
    }

    /** A 64 KiB private data length is refused before anything proportional to it is allocated. */
    @Test
    void hostilePrivateDataLengthAllocatesNothingProportional() throws Exception {
        ThreadAllocations allocations = ThreadAllocations.counter();
        byte[] header = Bytes.concat(Bytes.ascii(MpaConstants.REQUEST_KEY), Bytes.hex("40 02 ff ff"));
        for (int warmUp = 0; warmUp < 50; warmUp++) {
            parseExpectingFailure(header);
        }
        long before = allocations.now();
        MpaSetupException failure = parseExpectingFailure(header);
        long allocated = allocations.now() - before - allocations.measuringCost();
        assertEquals(TerminateCause.LLP_MPA_INVALID_REQUEST_REPLY, failure.terminateCause());
        // The parser's own 532-octet frame array and the exception with its message; nothing
        // near the 65535 octets announced.
        assertTrue(allocated < 8192, allocated + " octets allocated to refuse a 65535-octet private data length");
    }

    private static MpaSetupException parseExpectingFailure(byte[] octets) {
        return assertThrows(MpaSetupException.class,
                () -> new MpaFrameParser(MpaFrameType.REQUEST).parse(ByteBuffer.wrap(octets)));
    }

    // ---- generation -----------------------------------------------------------------------

    private static byte[] mutant(SplittableRandom random, MpaFrameType type) {
        byte[] valid = validFrame(random, type).toBytes();
        byte[] donor = random.nextInt(4) == 0 ? validFrame(random, type.other()).toBytes()
                : validFrame(random, type).toBytes();
        byte[] mutant = Mutator.mutate(random, valid, FIELDS, donor);
        if (random.nextInt(8) == 0) { // FPDUs right behind the frame stay in the input
            byte[] tail = new byte[random.nextInt(1, 40)];
            random.nextBytes(tail);
            mutant = Bytes.concat(mutant, tail);
        }
        return mutant;
    }

    /** A frame our encoder makes: revision 1 or 2, enhanced or not, any private data length. */
    private static MpaFrame validFrame(SplittableRandom random, MpaFrameType type) {
        int flags = random.nextInt(256) & (random.nextBoolean() ? 0xE0 : 0xFF) & ~MpaConstants.FLAG_ENHANCED;
        if (random.nextBoolean()) {
            EnhancedSetup setup = new EnhancedSetup(count(random), count(random), random.nextBoolean(),
                    rtrKinds(random));
            return MpaFrame.enhanced(type, flags, setup, privateData(random, MpaConstants.MAX_ULP_PRIVATE_DATA_ENHANCED));
        }
        int revision = random.nextBoolean() ? MpaConstants.REVISION_1 : MpaConstants.REVISION_2;
        return MpaFrame.of(type, flags, revision, privateData(random, MpaConstants.MAX_PRIVATE_DATA));
    }

    private static PrivateData privateData(SplittableRandom random, int max) {
        int length = switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> max;
            default -> random.nextInt(max + 1);
        };
        byte[] octets = new byte[length];
        random.nextBytes(octets);
        return PrivateData.of(octets);
    }

    private static int count(SplittableRandom random) {
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> MpaConstants.IRD_ORD_MASK;
            default -> random.nextInt(0, 64);
        };
    }

    private static Set<RtrKind> rtrKinds(SplittableRandom random) {
        EnumSet<RtrKind> kinds = EnumSet.noneOf(RtrKind.class);
        for (RtrKind kind : RtrKind.values()) {
            if (random.nextBoolean()) {
                kinds.add(kind);
            }
        }
        return kinds;
    }

    private static MpaPreferences preferences(SplittableRandom random) {
        int revision = random.nextBoolean() ? MpaConstants.REVISION_2 : MpaConstants.REVISION_1;
        return MpaPreferences.builder().revision(revision).enhanced(random.nextBoolean())
                .requestCrc(random.nextBoolean()).requireMarkersOnReceive(random.nextBoolean())
                .sendMarkersWhenRequired(random.nextBoolean()).ird(count(random)).ord(count(random))
                .peerToPeer(random.nextBoolean()).rtrKinds(rtrKinds(random))
                .acceptRevision1Peers(random.nextBoolean())
                .privateData(privateData(random, revision == MpaConstants.REVISION_2
                        ? MpaConstants.MAX_ULP_PRIVATE_DATA_ENHANCED : MpaConstants.MAX_PRIVATE_DATA))
                .build();
    }

    // ---- the target -----------------------------------------------------------------------

    private static void receive(byte[] input, SplittableRandom random, MpaFrameType expected) throws Exception {
        MpaFrameParser parser = new MpaFrameParser(expected);
        boolean octetAtATime = random.nextInt(4) == 0;
        MpaFrame frame = null;
        int at = 0;
        while (frame == null && at < input.length) {
            int size = octetAtATime ? 1 : random.nextInt(1, input.length - at + 1);
            ByteBuffer chunk = ByteBuffer.wrap(input, at, size);
            int before = parser.octetsReceived();
            frame = parser.parse(chunk);
            int consumed = chunk.position() - at;
            assertEquals(parser.octetsReceived() - before, consumed, "octets consumed against octets counted");
            if (frame == null) {
                assertEquals(size, consumed, "a parser that needs more input left some unread");
            }
            at = chunk.position();
        }
        if (frame == null) {
            assertTrue(parser.octetsReceived() == input.length && input.length < MpaConstants.MAX_FRAME_LENGTH,
                    "no frame, yet " + parser.octetsReceived() + " of " + input.length + " octets taken");
            return;
        }
        assertEquals(frame.encodedLength(), parser.octetsReceived(), "the parser consumed other than the frame");
        assertTrue(frame.privateData().length() <= MpaConstants.MAX_PRIVATE_DATA);
        assertNotNull(frame.toString());
        MpaPreferences preferences = preferences(random);
        if (expected == MpaFrameType.REQUEST) {
            ResponderDecision decision = MpaNegotiation.respond(preferences, frame);
            assertNotNull(decision.outcome());
            reparse(decision.reply());
            reparse(MpaNegotiation.rejection(preferences, frame, PrivateData.EMPTY));
        } else {
            MpaFrame request = MpaNegotiation.request(preferences);
            assertNotNull(MpaNegotiation.complete(preferences, request, frame));
        }
    }

    /** Our own Reply parses back to itself. */
    private static void reparse(MpaFrame reply) throws Exception {
        MpaFrame parsed = new MpaFrameParser(MpaFrameType.REPLY).parse(ByteBuffer.wrap(reply.toBytes()));
        assertEquals(reply, parsed);
    }
}
