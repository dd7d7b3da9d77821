package io.extsock.core.oracle;

import io.extsock.core.mpa.FpduDeframer;
import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.mpa.MpaFrame;
import io.extsock.core.mpa.MpaFrameParser;
import io.extsock.core.mpa.MpaFrameType;
import io.extsock.core.mpa.MpaSetupException;
import io.extsock.core.rdmap.MessageWriter;
import io.extsock.core.rdmap.SegmentReader;
import io.extsock.core.terminate.ProtocolViolationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;

/**
 * One end of a fixture connection: MPA frames and FPDUs written by our codecs onto a real
 * loopback socket, and what comes back read by our codecs. Blocking and single-threaded: a
 * test tool, not the engine.
 */
final class FixtureEndpoint {

    /** Pause after an MPA frame, so that no FPDU shares its TCP segment (Wireshark decodes none there). */
    private static final long AFTER_FRAME_MILLIS = 50;
    /** Pause between FPDUs in one-FPDU-per-segment mode (Wireshark's marker decoding needs it). */
    private static final long BETWEEN_FPDUS_MILLIS = 4;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final ByteBuffer staged = ByteBuffer.allocate(256 * 1024).flip();
    private final GatherWrite gather = new GatherWrite(512, 64 * 1024);
    final RecordingSink received = new RecordingSink();

    private MessageWriter writer;
    private SegmentReader reader;
    private boolean oneFpduPerSegment;

    FixtureEndpoint(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    void sendFrame(MpaFrame frame) throws IOException, InterruptedException {
        out.write(frame.toBytes());
        out.flush();
        Thread.sleep(AFTER_FRAME_MILLIS);  // pacing the wire for the capture, not synchronisation
    }

    MpaFrame receiveFrame(MpaFrameType type) throws IOException, MpaSetupException {
        MpaFrameParser parser = new MpaFrameParser(type);
        while (true) {
            MpaFrame frame = parser.parse(staged);
            if (frame != null) {
                return frame;  // bytes after it stay staged: FPDUs read ahead are not lost
            }
            fill();
        }
    }

    /** Switches to full operation with what negotiation agreed. */
    void fullOperation(MpaAgreement agreement, int maxFpduSize, boolean oneFpduPerSegment) {
        FpduFramer framer = new FpduFramer(agreement.crc(), agreement.sendMarkers());
        writer = new MessageWriter(framer, FpduFramer.maxUlpduLength(maxFpduSize, agreement.sendMarkers()));
        reader = new SegmentReader(new FpduDeframer(agreement.crc(), agreement.receiveMarkers()), received);
        this.oneFpduPerSegment = oneFpduPerSegment;
    }

    MessageWriter writer() {
        return writer;
    }

    /** Writes the writer's current message out, FPDU by FPDU if so configured. */
    void flushMessage() throws IOException, InterruptedException {
        int perWrite = oneFpduPerSegment ? 1 : Integer.MAX_VALUE;
        boolean done;
        do {
            done = writer.writeTo(gather, perWrite);
            writeGather();
            if (oneFpduPerSegment) {
                Thread.sleep(BETWEEN_FPDUS_MILLIS);  // pacing the wire for the capture, not synchronisation
            }
        } while (!done);
    }

    /** Reads until {@code count} messages in all have arrived. */
    void awaitMessages(int count) throws IOException, ProtocolViolationException {
        while (received.messages.size() < count) {
            reader.read(staged);
            if (received.messages.size() < count) {
                fill();
            }
        }
    }

    void close() throws IOException {
        socket.close();
    }

    /**
     * Closes once the peer has closed too: our FIN, then whatever is left until the peer's
     * (discarded). The peer has then read all we sent, so the close resets nothing and the
     * capture holds every frame.
     */
    void closeAfterPeer() throws IOException {
        socket.shutdownOutput();
        byte[] discard = new byte[4096];
        while (in.read(discard) >= 0) {
            // left unread by the scenario: not what it checks
        }
        socket.close();
    }

    /** One write for the whole gather: with TCP_NODELAY each write leaves as its own segment. */
    private void writeGather() throws IOException {
        byte[] octets = new byte[(int) gather.remaining()];
        ByteBuffer all = ByteBuffer.wrap(octets);
        for (int i = 0; i < gather.count(); i++) {
            all.put(gather.buffers()[i]);
        }
        out.write(octets);
        out.flush();
        gather.reset();
    }

    private void fill() throws IOException {
        staged.compact();
        int n = in.read(staged.array(), staged.position(), staged.remaining());
        if (n < 0) {
            throw new IOException("the peer closed the connection early");
        }
        staged.position(staged.position() + n).flip();
    }
}
