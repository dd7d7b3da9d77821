package io.extsock.core.proof;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.RemoteBuffer;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.EnumSet;

/**
 * The peer {@link PeerKilledIT} kills: an IWARP_MODE server (streams on) that accepts one
 * connection with a small TCP receive buffer ({@link #RECEIVE_BUFFER}, so that a frozen peer's
 * kernel takes little), opens a 4 MiB region to reads and writes, prints {@code PORT <port>}
 * and then {@code REGION <stag> <offset> <length>}, and waits, never reading its stream, until
 * it is killed (or, as a watchdog, two minutes pass).
 */
public final class DoomedPeerProcess {

    /** The accepted connection's TCP receive buffer, asked for (the kernel doubles it). */
    public static final int RECEIVE_BUFFER = 64 * 1024;

    public static void main(String[] args) throws Exception {
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.setReceiveBufferSize(RECEIVE_BUFFER);  // before accept: the accepted socket's
            System.out.println("PORT " + server.getLocalPort());
            try (ExtendedSocket accepted = server.accept()) {
                IwarpConnection verbs = accepted.iwarp();
                MemoryRegion region = verbs.register(ByteBuffer.allocateDirect(4 << 20),
                        EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE));
                RemoteBuffer remote = region.remote();
                System.out.println("REGION " + remote.stag() + " " + remote.offset() + " " + remote.length());
                Thread.sleep(120_000);  // stays up until the test kills it, which is what it is for
            }
        }
    }
}
