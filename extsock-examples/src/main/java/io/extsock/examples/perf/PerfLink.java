package io.extsock.examples.perf;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.examples.cli.Endpoint;
import io.extsock.examples.cli.Sockets;
import io.extsock.examples.cli.UserErrors;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpSetup;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A perf run's connection, made the same way on both ends: the client sends the run's {@link
 * PerfParameters} in plain TCP, then both switch to IWARP_MODE if the run needs it (the client
 * as MPA initiator), with the run's options and its setup hook.
 */
final class PerfLink implements AutoCloseable {

    final Socket socket;
    final PerfParameters run;
    private final IwarpConnection verbs;

    private PerfLink(Socket socket, PerfParameters run, IwarpConnection verbs) {
        this.socket = socket;
        this.run = run;
        this.verbs = verbs;
    }

    /** The client's end: connects, tells the server the run, switches. */
    static PerfLink connect(Endpoint where, PerfParameters run, IwarpSetup setup) {
        InetSocketAddress address = where.address();
        Socket socket = run.mode() == PerfMode.plain ? new Socket() : new ExtendedSocket();
        try {
            socket.setTcpNoDelay(true);  // every mode: the latency tests measure the sockets, not Nagle
            socket.connect(address, where.connectTimeoutMillis);
            run.writeTo(socket.getOutputStream());
            return new PerfLink(socket, run, run.iwarp() ? switchToIwarp((ExtendedSocket) socket, run, setup) : null);
        } catch (IOException e) {
            Sockets.closeQuietly(socket);
            throw UserErrors.connecting(where.peer(), e);
        }
    }

    /** The server's end of an accepted connection, once the run was read from it. */
    static PerfLink accept(Socket socket, PerfParameters run, IwarpSetup setup) throws IOException {
        return new PerfLink(socket, run, run.iwarp() ? switchToIwarp((ExtendedSocket) socket, run, setup) : null);
    }

    private static IwarpConnection switchToIwarp(ExtendedSocket socket, PerfParameters run, IwarpSetup setup)
            throws IOException {
        socket.setOption(IwarpOptions.CRC, run.crc());
        socket.setOption(IwarpOptions.MARKERS, run.markers());
        socket.setOption(IwarpOptions.STREAMS, !run.test().ownsSends());
        if (run.outstandingReads() > 0) {  // each end asks for both: the agreement takes the smaller
            socket.setOption(IwarpOptions.ORD, run.outstandingReads());
            socket.setOption(IwarpOptions.IRD, run.outstandingReads());
        }
        if (setup != null) {
            socket.setOption(IwarpOptions.SETUP, setup);
        }
        socket.setOption(IwarpOptions.IWARP_MODE, true);
        return socket.iwarp();
    }

    IwarpConnection verbs() {
        return verbs;
    }

    InputStream in() throws IOException {
        return socket.getInputStream();
    }

    OutputStream out() throws IOException {
        return socket.getOutputStream();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
