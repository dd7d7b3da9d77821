package io.extsock.core.engine;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

/**
 * How many stream octets may legitimately arrive ahead of the peer's MPA frame, worked out at
 * the switch; more, and the peer is not an MPA peer: the switch fails at once (RFC 5044 section
 * 7.1.1) instead of buffering it until the MPA timeout.
 *
 * <p>The octets ahead of the frame are what the peer's application wrote on the plain stream
 * before it switched and ours has not read. A connection switched at connect or accept carried
 * no plain stream: none may come (the peer's first octet starts its frame). A connection
 * switched later may have: the peer could hand TCP, before its switch, as much as TCP lets a
 * writer get ahead of a reader that reads nothing (ours does not, while it switches): our
 * receive buffer and the peer's send buffer. The peer's we cannot see, so ours stands for it
 * (both ends run the same TCP settings as a rule). Linux lets more payload into those buffers
 * than their reported sizes (measured on loopback: 4.16 MB went into a 64 KiB receive and a 2
 * MiB send buffer before a writer blocked), hence twice their sum; and never less than what
 * already waits unread.
 */
final class StreamBeforeFrame {

    private StreamBeforeFrame() {
    }

    /**
     * The most stream octets accepted ahead of the peer's MPA frame.
     *
     * @param earlierStream whether the connection may have carried plain stream before the switch
     */
    static int maxOctets(SocketChannel channel, boolean earlierStream) throws IOException {
        if (!earlierStream) {
            return 0;
        }
        long buffers = (long) channel.getOption(StandardSocketOptions.SO_RCVBUF)
                + channel.getOption(StandardSocketOptions.SO_SNDBUF);
        long unread = channel.socket().getInputStream().available();
        return (int) Math.min(Integer.MAX_VALUE / 2, Math.max(2 * buffers, unread));
    }
}
