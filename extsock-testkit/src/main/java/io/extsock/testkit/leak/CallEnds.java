package io.extsock.testkit.leak;

import java.io.IOException;

/**
 * When a call that must end ended: for a stream call blocked when its connection broke, the
 * {@link System#nanoTime()} at which it threw, to measure how long the break took to reach it.
 */
public final class CallEnds {

    /** A call that may throw an {@link IOException}, such as a stream's write. */
    @FunctionalInterface
    public interface IoCall {
        /**
         * Makes the call.
         *
         * @throws IOException what the call throws
         */
        void run() throws IOException;
    }

    /** A read of one octet, such as {@link java.io.InputStream#read()}. */
    @FunctionalInterface
    public interface IoRead {
        /**
         * Reads.
         *
         * @return the octet, or -1 at end of stream
         * @throws IOException what the read throws
         */
        int read() throws IOException;
    }

    private CallEnds() {
    }

    /**
     * Runs a call that must throw an {@link IOException}.
     *
     * @param call the call
     * @return {@link System#nanoTime()} when it threw
     * @throws AssertionError when the call returned instead
     */
    public static long throwsAt(IoCall call) {
        try {
            call.run();
        } catch (IOException expected) {
            return System.nanoTime();
        }
        throw new AssertionError("the stream call returned instead of throwing");
    }

    /**
     * Runs a read that must end without data: -1 (end of stream, as a plain socket's reader
     * sees a FIN) or an {@link IOException}. Prints which, after {@code label}.
     *
     * @param label what broke the connection, to begin the printed line
     * @param read  the read
     * @return {@link System#nanoTime()} when it ended
     * @throws AssertionError when the read returned an octet
     */
    public static long endsAt(String label, IoRead read) {
        try {
            int octet = read.read();
            if (octet != -1) {
                throw new AssertionError("the stream read returned a byte (" + octet + ") the peer never wrote");
            }
            System.out.println(label + ": the blocked read saw end of stream");
        } catch (IOException expected) {
            System.out.println(label + ": the blocked read threw " + expected);
        }
        return System.nanoTime();
    }
}
