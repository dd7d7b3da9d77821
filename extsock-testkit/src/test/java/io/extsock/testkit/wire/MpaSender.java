package io.extsock.testkit.wire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * One direction of an MPA connection (RFC 5044): frames ULPDUs into FPDUs with pad, CRC32c and,
 * when negotiated, markers, and writes each batch as one TCP write. Can also break the rules
 * on purpose, for the judge's fault tests.
 */
final class MpaSender {

    /** What to get wrong in one FPDU. */
    enum Fault { NONE, BAD_CRC, NONZERO_PAD, WRONG_FPDUPTR }

    private final OutputStream out;
    private boolean crc;
    private boolean markers;
    /** Octets sent since this side's setup frame: markers go where it is a multiple of 512. */
    private long position;

    MpaSender(OutputStream out) {
        this.out = out;
    }

    void negotiated(boolean crc, boolean markers) {
        this.crc = crc;
        this.markers = markers;
    }

    /** Writes octets as they are (a setup frame, or junk): markers count from after it. */
    void raw(byte[] octets) throws IOException {
        out.write(octets);
        out.flush();
        pause();
    }

    /** Writes the FPDUs of the ULPDUs in one TCP write. */
    void send(byte[]... ulpdus) throws IOException {
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        for (byte[] ulpdu : ulpdus) {
            batch.writeBytes(fpdu(ulpdu, Fault.NONE));
        }
        raw(batch.toByteArray());
    }

    void sendFaulty(byte[] ulpdu, Fault fault) throws IOException {
        raw(fpdu(ulpdu, fault));
    }

    /** How many octets the FPDU of a ULPDU of this length would take here, markers included. */
    int sizeHere(int ulpduLength) {
        long saved = position;
        int size = fpdu(new byte[ulpduLength], Fault.NONE).length;
        position = saved;
        return size;
    }

    long position() {
        return position;
    }

    /** Loopback with TCP_NODELAY sends a write as its own segment; a pause keeps it so. */
    private static void pause() {
        try {
            Thread.sleep(15);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Length, ULPDU, zero pad, CRC32c (little-endian on the wire), markers inserted where due. */
    byte[] fpdu(byte[] ulpdu, Fault fault) {
        int pad = (4 - (2 + ulpdu.length) % 4) % 4;
        ByteBuffer plain = ByteBuffer.allocate(2 + ulpdu.length + pad);
        plain.putShort((short) ulpdu.length).put(ulpdu);
        for (int i = 0; i < pad; i++) {
            plain.put((byte) (fault == Fault.NONZERO_PAD ? 0xAA : 0));
        }
        ByteArrayOutputStream marked = new ByteArrayOutputStream();
        long header = -1;  // stream position of the length field
        for (byte octet : plain.array()) {
            insertMarkerIfDue(marked, header, fault);
            if (header < 0) {
                header = position;
            }
            marked.write(octet);
            position++;
        }
        // A marker due right before the CRC belongs to this FPDU, and the CRC covers it.
        insertMarkerIfDue(marked, header, fault);
        CRC32C crc32c = new CRC32C();
        crc32c.update(marked.toByteArray());
        int value = crc ? (int) crc32c.getValue() : 0;
        if (fault == Fault.BAD_CRC) {
            value ^= 0x5A5A5A5A;
        }
        byte[] crcOctets = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
        for (int i = 0; i < crcOctets.length; i++) {
            if (i > 0) {
                insertMarkerIfDue(marked, header, fault);
            }
            marked.write(crcOctets[i]);
            position++;
        }
        return marked.toByteArray();
    }

    private void insertMarkerIfDue(ByteArrayOutputStream marked, long header, Fault fault) {
        if (!markers || position % 512 != 0) {
            return;
        }
        // FPDUPTR: back to this FPDU's length field; 0 when the FPDU starts right after the marker.
        int pointer = header < 0 ? 0 : (int) (position - header);
        if (fault == Fault.WRONG_FPDUPTR) {
            pointer += 4;
        }
        marked.writeBytes(new byte[] {0, 0, (byte) (pointer >> 8), (byte) pointer});
        position += 4;
    }
}
