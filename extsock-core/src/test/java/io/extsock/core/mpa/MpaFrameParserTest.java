package io.extsock.core.mpa;

import static io.extsock.core.mpa.Bytes.ascii;
import static io.extsock.core.mpa.Bytes.concat;
import static io.extsock.core.mpa.Bytes.hex;
import static io.extsock.core.terminate.TerminateCause.LLP_MPA_INVALID_REQUEST_REPLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class MpaFrameParserTest {

    private static final byte[] REPLY_WITH_DATA = concat(ascii("MPA ID Rep Frame"), hex("40 01 00 05"), ascii("hello"));
    private static final byte[] FPDU_AFTER = hex("00 02 41 43 00 00 00 00 00 00");

    @Test
    @DisplayName("RFC 5044 section 7.1.1: one octet at a time")
    void oneOctetAtATime() throws Exception {
        MpaFrameParser parser = new MpaFrameParser(MpaFrameType.REPLY);
        MpaFrame frame = null;
        for (int i = 0; i < REPLY_WITH_DATA.length; i++) {
            assertNull(frame);
            frame = parser.parse(ByteBuffer.wrap(REPLY_WITH_DATA, i, 1));
        }
        assertEquals(MpaFrame.of(MpaFrameType.REPLY, 0x40, 1, PrivateData.of(ascii("hello"))), frame);
        assertEquals(25, parser.octetsReceived());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.2: FPDUs right behind the frame stay in the input")
    void readAheadIsNotLost() throws Exception {
        ByteBuffer input = ByteBuffer.wrap(concat(REPLY_WITH_DATA, FPDU_AFTER));
        MpaFrameParser parser = new MpaFrameParser(MpaFrameType.REPLY);
        MpaFrame frame = parser.parse(input);
        assertEquals(REPLY_WITH_DATA.length, input.position());
        assertEquals(FPDU_AFTER.length, input.remaining());
        assertSame(frame, parser.parse(input));
        assertEquals(REPLY_WITH_DATA.length, input.position());
    }

    @Test
    void randomSplitsGiveTheSameFrame() throws Exception {
        SplittableRandom random = new SplittableRandom(5044);
        byte[] stream = concat(REPLY_WITH_DATA, FPDU_AFTER);
        for (int round = 0; round < Bytes.iterations(200); round++) {
            MpaFrameParser parser = new MpaFrameParser(MpaFrameType.REPLY);
            MpaFrame frame = null;
            int at = 0;
            while (frame == null) {
                int count = random.nextInt(1, stream.length - at + 1);
                ByteBuffer chunk = ByteBuffer.wrap(stream, at, count);
                frame = parser.parse(chunk);
                at = chunk.position();
            }
            assertEquals(REPLY_WITH_DATA.length, at);
            assertEquals(PrivateData.of(ascii("hello")), frame.privateData());
        }
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: a wrong key fails at once and shows what came, plain text diagnosed")
    void plainTextPeer() {
        MpaSetupException failure = assertThrows(MpaSetupException.class,
                () -> new MpaFrameParser(MpaFrameType.REQUEST).parse(ByteBuffer.wrap(ascii("hello\r\n"))));
        assertEquals(MpaFailureReason.NOT_MPA_PEER, failure.reason());
        assertEquals(LLP_MPA_INVALID_REQUEST_REPLY, failure.terminateCause());
        assertEquals("MPA error: invalid MPA Request or Reply frame: expected an MPA Request starting with"
                + " \"MPA ID Req Frame\" but the first octets received were \"hello\\r\\n\" (68 65 6c 6c 6f 0d 0a):"
                + " this looks like plain text; the connecting peer is probably not in IWARP_MODE"
                + " (it sent application data instead of an MPA Request)", failure.getMessage());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: a wrong key does not wait for 16 octets")
    void wrongKeyFailsOnFirstWrongOctet() throws Exception {
        MpaFrameParser parser = new MpaFrameParser(MpaFrameType.REPLY);
        assertNull(parser.parse(ByteBuffer.wrap(ascii("MPA"))));
        MpaSetupException failure = assertThrows(MpaSetupException.class, () -> parser.parse(ByteBuffer.wrap(hex("00"))));
        assertTrue(failure.getMessage().contains("\"MPA\\x00\" (4d 50 41 00)"), failure.getMessage());
        assertTrue(failure.getMessage().contains("the accepting peer does not speak MPA"), failure.getMessage());
        assertThrows(IllegalStateException.class, () -> parser.parse(ByteBuffer.wrap(hex("00"))));
    }

    @Test
    void tlsPeerIsNamed() {
        MpaSetupException failure = assertThrows(MpaSetupException.class,
                () -> new MpaFrameParser(MpaFrameType.REPLY).parse(ByteBuffer.wrap(hex("16 03 01 02 00 01"))));
        assertTrue(failure.getMessage().contains("looks like a TLS handshake"), failure.getMessage());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: a Reply where a Request was due")
    void replyInsteadOfRequest() {
        MpaSetupException failure = assertThrows(MpaSetupException.class,
                () -> new MpaFrameParser(MpaFrameType.REQUEST).parse(ByteBuffer.wrap(REPLY_WITH_DATA)));
        assertEquals(MpaFailureReason.UNEXPECTED_FRAME, failure.reason());
        assertTrue(failure.getMessage().contains("expected an MPA Request (key \"MPA ID Req Frame\") but the peer sent"
                + " an MPA Reply: \"MPA ID Rep Frame\""), failure.getMessage());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: a Request where a Reply was due")
    void requestInsteadOfReply() {
        MpaSetupException failure = assertThrows(MpaSetupException.class,
                () -> new MpaFrameParser(MpaFrameType.REPLY).parse(ByteBuffer.wrap(MpaFrameTest.LINUX_REQUEST)));
        assertEquals(MpaFailureReason.UNEXPECTED_FRAME, failure.reason());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: PD_Length over 512 fails with the header, before any private data")
    void hostilePrivateDataLength() throws Exception {
        for (int length : new int[] {513, 600, 0xFFFF}) {
            MpaFrameParser parser = new MpaFrameParser(MpaFrameType.REQUEST);
            byte[] header = concat(ascii("MPA ID Req Frame"), hex("00 01"), new byte[] {(byte) (length >> 8), (byte) length});
            assertNull(parser.parse(ByteBuffer.wrap(header, 0, 19)));
            MpaSetupException failure = assertThrows(MpaSetupException.class,
                    () -> parser.parse(ByteBuffer.wrap(header, 19, 1)));
            assertEquals(MpaFailureReason.MALFORMED, failure.reason());
            assertTrue(failure.getMessage().contains("announces " + length + " octets of private data"));
            assertEquals(20, parser.octetsReceived());
        }
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: PD_Length of exactly 512 is fine")
    void largestPrivateData() throws Exception {
        byte[] wire = concat(ascii("MPA ID Req Frame"), hex("00 01 02 00"), new byte[512]);
        assertEquals(512, new MpaFrameParser(MpaFrameType.REQUEST).parse(ByteBuffer.wrap(wire)).privateData().length());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1 and RFC 6581 section 6.1: only revisions 1 and 2")
    void unsupportedRevision() {
        for (int revision : new int[] {0, 3, 255}) {
            byte[] wire = concat(ascii("MPA ID Req Frame"), new byte[] {0, (byte) revision}, hex("00 00"));
            MpaSetupException failure = assertThrows(MpaSetupException.class,
                    () -> new MpaFrameParser(MpaFrameType.REQUEST).parse(ByteBuffer.wrap(wire)));
            assertEquals(MpaFailureReason.UNSUPPORTED_REVISION, failure.reason());
            assertTrue(failure.getMessage().contains("MPA revision " + revision), failure.getMessage());
        }
    }

    @Test
    @DisplayName("RFC 6581 section 7.1: H in revision 2 needs 4 octets of private data")
    void enhancedWithoutSetupWords() throws Exception {
        byte[] wire = concat(ascii("MPA ID Req Frame"), hex("10 02 00 03 00 01 00"));
        MpaSetupException failure = assertThrows(MpaSetupException.class,
                () -> new MpaFrameParser(MpaFrameType.REQUEST).parse(ByteBuffer.wrap(wire)));
        assertEquals(MpaFailureReason.MALFORMED, failure.reason());
        assertTrue(failure.getMessage().contains("too few for the IRD and ORD words"), failure.getMessage());
        byte[] revision1 = concat(ascii("MPA ID Req Frame"), hex("10 01 00 00"));
        assertEquals(1, new MpaFrameParser(MpaFrameType.REQUEST).parse(ByteBuffer.wrap(revision1)).revision());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: R means something only in a Reply; a Request's R is not held against it")
    void rejectBitInRequestIsIgnored() throws Exception {
        byte[] wire = concat(ascii("MPA ID Req Frame"), hex("20 01 00 00"));
        MpaFrame request = new MpaFrameParser(MpaFrameType.REQUEST).parse(ByteBuffer.wrap(wire));
        assertEquals(MpaFrameType.REQUEST, request.type());
        assertEquals(1, request.revision());
    }

    @Test
    void emptyInputWaits() throws Exception {
        MpaFrameParser parser = new MpaFrameParser(MpaFrameType.REQUEST);
        assertNull(parser.parse(ByteBuffer.allocate(0)));
        assertEquals(0, parser.octetsReceived());
    }
}
