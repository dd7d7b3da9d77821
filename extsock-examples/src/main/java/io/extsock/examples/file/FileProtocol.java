package io.extsock.examples.file;

import io.extsock.verbs.RemoteBuffer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code extsock file get} and {@code serve} say to each other, over the socket's stream
 * (in IWARP_MODE the stream runs over Sends, ordered after any RDMA Write sent before it):
 * <pre>
 * client: REQUEST  magic "XSF2" (int), method (byte)
 * server: OFFER    OK (byte), name (UTF), size (long)   |  REFUSED (byte), reason (UTF)
 * client: READY (byte)  (or closes: no space, file exists)
 *   stream: server: size bytes, then DONE + SHA-256
 *   transferTo (plain TCP): as stream, the server's bytes sent by FileChannel.transferTo (sendfile)
 *   write:  client: slot count (int) + a 16-byte RemoteBuffer per slot of its ring (REMOTE_WRITE)
 *           server: per chunk, into the next slot in ring order: an RDMA Write, then CHUNK +
 *                   length (int); it waits for a FREE before it writes into a slot again
 *           client: FREE (byte) once a chunk is in the file; server, after the last: DONE + SHA-256
 *   read:   server: region count (int) + 16-byte RemoteBuffers (REMOTE_READ)
 *           client: RDMA Reads; then READ_DONE (byte); server: DONE + SHA-256
 * client: VERDICT (byte): 1 if its SHA-256 matched, 0 if not
 * </pre>
 */
final class FileProtocol {

    static final int MAGIC = 0x58534632;  // "XSF2": XSF1 wrote straight into the client's mapped file
    /** "MPA " (RFC 5044's request key, "MPA ID Req Frame", begins so): a client that asked for IWARP_MODE. */
    static final int MPA_REQUEST = 0x4D504120;
    static final byte OK = 1;
    static final byte REFUSED = 0;
    static final byte READY = 'R';
    static final byte CHUNK = 'C';
    static final byte FREE = 'E';
    static final byte DONE = 'D';
    static final byte READ_DONE = 'F';

    private FileProtocol() {
    }

    static void writeRegions(DataOutputStream out, List<RemoteBuffer> regions) throws IOException {
        ByteBuffer encoded = ByteBuffer.allocate(4 + regions.size() * RemoteBuffer.ENCODED_LENGTH);
        encoded.putInt(regions.size());
        regions.forEach(region -> region.writeTo(encoded));
        out.write(encoded.array());
        out.flush();
    }

    static List<RemoteBuffer> readRegions(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > 1 << 20) {
            throw new Violation("the peer announced " + count + " regions: not an extsock file peer");
        }
        ByteBuffer encoded = ByteBuffer.wrap(in.readNBytes(count * RemoteBuffer.ENCODED_LENGTH));
        List<RemoteBuffer> regions = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            regions.add(RemoteBuffer.readFrom(encoded));
        }
        return regions;
    }

    /** Reads the DONE message's hash (after its tag was read). */
    static byte[] readHash(DataInputStream in) throws IOException {
        byte[] hash = new byte[Sha256.LENGTH];
        in.readFully(hash);
        return hash;
    }

    /** The peer broke the protocol (it is not an extsock file peer): not a peer that went away. */
    static final class Violation extends SocketException {
        Violation(String message) {
            super(message);
        }
    }

    /** What the peer sent where {@code expected} belongs: its end of stream, or a message of another protocol. */
    static IOException unexpected(int tag, String expected) {
        if (tag < 0) {
            return new EOFException("the peer closed the connection where " + expected + " belongs");
        }
        return new Violation("the peer sent message " + tag + " where " + expected
                + " belongs: not an extsock file peer, or a different version");
    }
}
