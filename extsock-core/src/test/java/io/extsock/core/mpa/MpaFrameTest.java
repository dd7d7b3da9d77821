package io.extsock.core.mpa;

import static io.extsock.core.mpa.Bytes.ascii;
import static io.extsock.core.mpa.Bytes.concat;
import static io.extsock.core.mpa.Bytes.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class MpaFrameTest {

    /** What rdma_cm over Linux siw sends as Initiator (WIRE.md). */
    static final byte[] LINUX_REQUEST = concat(ascii("MPA ID Req Frame"), hex("10 02 00 04 00 01 00 01"));

    @Test
    @DisplayName("RFC 6581 section 6.1: the Linux initiator's Request, encoded from preferences")
    void linuxRequestEncoded() {
        MpaPreferences linuxLike = MpaPreferences.builder().requestCrc(false).ird(1).ord(1).peerToPeer(false).build();
        assertArrayEquals(LINUX_REQUEST, MpaNegotiation.request(linuxLike).toBytes());
    }

    @Test
    @DisplayName("RFC 6581 section 6.1: the Linux initiator's Request, parsed")
    void linuxRequestParsed() throws Exception {
        MpaFrame frame = new MpaFrameParser(MpaFrameType.REQUEST).parse(ByteBuffer.wrap(LINUX_REQUEST));
        assertEquals(MpaFrameType.REQUEST, frame.type());
        assertEquals(2, frame.revision());
        assertTrue(frame.isEnhanced());
        assertFalse(frame.crc());
        assertFalse(frame.markers());
        assertFalse(frame.rejected());
        assertEquals(Optional.of(new EnhancedSetup(1, 1, false, Set.of())), frame.enhancedSetup());
        assertEquals(PrivateData.EMPTY, frame.ulpPrivateData());
        assertArrayEquals(LINUX_REQUEST, frame.toBytes());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: flags octet M C R H and reserved bits, revision, PD_Length, private data")
    void layout() {
        MpaFrame frame = MpaFrame.of(MpaFrameType.REPLY, 0xE5, 1, PrivateData.of(ascii("why")));
        assertArrayEquals(concat(ascii("MPA ID Rep Frame"), hex("e5 01 00 03"), ascii("why")), frame.toBytes());
        assertTrue(frame.markers());
        assertTrue(frame.crc());
        assertTrue(frame.rejected());
        assertFalse(frame.enhancedFlag());
        assertEquals(0x5, frame.reservedBits());
        assertEquals(23, frame.encodedLength());
    }

    @Test
    @DisplayName("RFC 6581 section 6.1: H means enhanced setup only in revision 2")
    void enhancedNeedsRevision2() {
        MpaFrame revision1 = MpaFrame.of(MpaFrameType.REQUEST, 0x10, 1, PrivateData.of(hex("00 01 00 01")));
        assertTrue(revision1.enhancedFlag());
        assertFalse(revision1.isEnhanced());
        assertEquals(Optional.empty(), revision1.enhancedSetup());
        assertEquals(4, revision1.ulpPrivateData().length());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: reserved flag bits are kept as received")
    void reservedBitsKept() throws Exception {
        byte[] wire = concat(ascii("MPA ID Rep Frame"), hex("1a 02 00 04 00 01 00 01"));
        MpaFrame frame = new MpaFrameParser(MpaFrameType.REPLY).parse(ByteBuffer.wrap(wire));
        assertEquals(0xA, frame.reservedBits());
        assertArrayEquals(wire, frame.toBytes());
    }

    @Test
    @DisplayName("RFC 6581 section 7.1: the enhanced frame puts IRD/ORD before the ULP's private data")
    void enhancedFactory() {
        EnhancedSetup setup = new EnhancedSetup(16, 16, true, EnumSet.of(RtrKind.ZERO_LENGTH_WRITE, RtrKind.ZERO_LENGTH_READ));
        MpaFrame frame = MpaFrame.enhanced(MpaFrameType.REQUEST, MpaConstants.FLAG_CRC, setup, PrivateData.of(ascii("hi")));
        assertArrayEquals(concat(ascii("MPA ID Req Frame"), hex("50 02 00 06 80 10 c0 10"), ascii("hi")), frame.toBytes());
        assertEquals(PrivateData.of(ascii("hi")), frame.ulpPrivateData());
    }

    @Test
    @DisplayName("RFC 5044 section 7.1.1: at most 512 octets of private data")
    void privateDataLimit() {
        assertEquals(532, MpaFrame.of(MpaFrameType.REQUEST, 0, 1, PrivateData.of(new byte[512])).encodedLength());
        assertThrows(IllegalArgumentException.class,
                () -> MpaFrame.of(MpaFrameType.REQUEST, 0, 1, PrivateData.of(new byte[513])));
        assertThrows(IllegalArgumentException.class, () -> MpaFrame.enhanced(MpaFrameType.REQUEST, 0,
                new EnhancedSetup(0, 0, false, Set.of()), PrivateData.of(new byte[509])));
    }

    @Test
    void valueSemanticsAndReadableText() {
        MpaFrame a = MpaFrame.of(MpaFrameType.REQUEST, 0x50, 2, PrivateData.of(hex("80 10 c0 10")));
        MpaFrame b = MpaFrame.of(MpaFrameType.REQUEST, 0x50, 2, PrivateData.of(hex("80 10 c0 10")));
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals("MPA Request rev 2 -C-H EnhancedSetup[ird=16, ord=16, peerToPeer=true, "
                + "rtrKinds=[ZERO_LENGTH_WRITE, ZERO_LENGTH_READ]], private data 4 octets 8010c010", a.toString());
    }
}
