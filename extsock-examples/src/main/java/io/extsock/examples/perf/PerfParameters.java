package io.extsock.examples.perf;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketException;
import java.nio.ByteBuffer;

/**
 * One perf run, as the client tells the server in plain TCP before both switch to IWARP_MODE
 * (if the test needs it): so one server serves every test, mode and size.
 *
 * @param iterations     measured iterations; 0 when the run is timed by {@code durationMillis}
 * @param durationMillis how long to run when {@code iterations} is 0
 * @param bidirectional  bandwidth tests: both ends send at once (perftest's -b)
 * @param depth          bandwidth tests over the extended API: requests in flight per end; 0 for the test's default
 * @param receiveDepth   send_bw: Receives each receiving end keeps posted (perftest's -r); 0 for the test's default
 * @param postList       bandwidth tests: messages per post (perftest's --post_list), per socket write in tcp_bw; at least 1
 * @param outstandingReads read tests: the ORD and IRD both ends ask for (perftest's --outs); 0 for the engine's default
 */
record PerfParameters(PerfTest test, PerfMode mode, int size, long iterations, long durationMillis, boolean crc,
                      boolean markers, boolean bidirectional, int depth, int receiveDepth, int postList,
                      int outstandingReads) {

    // "XSP5": XSP4 had no outstanding reads, XSP3 no post list, XSP2 no receive depth, XSP1 no bidirectional flag nor depth
    private static final int MAGIC = 0x58535035;
    /** The header's length on the wire: read exactly, so no byte of the MPA exchange is taken with it. */
    static final int ENCODED_LENGTH = 4 + 1 + 1 + 4 + 8 + 8 + 1 + 1 + 1 + 4 + 4 + 4 + 4;

    /** A one-way run with the default depths, a message per post. */
    PerfParameters(PerfTest test, PerfMode mode, int size, long iterations, long durationMillis, boolean crc,
                   boolean markers) {
        this(test, mode, size, iterations, durationMillis, crc, markers, false, 0, 0, 1, 0);
    }

    /** Requests in flight: {@code depth}, or {@code fallback} when the run leaves it to the test. */
    int depthOr(int fallback) {
        return depth > 0 ? depth : fallback;
    }

    /** Receives posted: {@code receiveDepth}, or {@code fallback} when the run leaves it to the test. */
    int receivesOr(int fallback) {
        return receiveDepth > 0 ? receiveDepth : fallback;
    }

    boolean iwarp() {
        return mode == PerfMode.iwarp;
    }

    boolean timed() {
        return iterations == 0;
    }

    void writeTo(OutputStream out) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(ENCODED_LENGTH);
        header.putInt(MAGIC).put((byte) test.ordinal()).put((byte) mode.ordinal()).putInt(size).putLong(iterations)
                .putLong(durationMillis).put((byte) (crc ? 1 : 0)).put((byte) (markers ? 1 : 0))
                .put((byte) (bidirectional ? 1 : 0)).putInt(depth).putInt(receiveDepth).putInt(postList)
                .putInt(outstandingReads);
        out.write(header.array());  // one write: one segment
        out.flush();
    }

    static PerfParameters readFrom(InputStream in) throws IOException {
        ByteBuffer header = ByteBuffer.wrap(new DataInputStream(in).readNBytes(ENCODED_LENGTH));
        if (header.remaining() < ENCODED_LENGTH || header.getInt() != MAGIC) {
            throw new SocketException("the client does not speak this version of extsock's perf protocol");
        }
        int test = header.get();
        int mode = header.get();
        if (test < 0 || test >= PerfTest.values().length || mode < 0 || mode >= PerfMode.values().length) {
            throw new SocketException("unknown perf test " + test + " or mode " + mode);
        }
        return new PerfParameters(PerfTest.values()[test], PerfMode.values()[mode], header.getInt(), header.getLong(),
                header.getLong(), header.get() != 0, header.get() != 0, header.get() != 0, header.getInt(),
                header.getInt(), header.getInt(), header.getInt());
    }
}
