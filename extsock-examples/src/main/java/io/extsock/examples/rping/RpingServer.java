package io.extsock.examples.rping;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.examples.cli.Sockets;
import io.extsock.examples.cli.UserError;
import io.extsock.examples.cli.UserErrors;
import io.extsock.verbs.RemoteBuffer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.SocketException;

/**
 * rping's server: per connection, wait for the client's source advertisement, RDMA-Read its
 * data, say "go ahead", wait for the sink advertisement, RDMA-Write the data back (as a C string:
 * up to its NUL, included), say "go ahead"; until the client disconnects. With {@code -P} it
 * serves any number of clients at once, each on its own thread; without, one and exits.
 */
final class RpingServer {

    private final RpingOptions options;
    private final RpingSetup setup;

    RpingServer(RpingOptions options, RpingSetup setup) {
        this.options = options;
        this.setup = setup;
    }

    void run(ExtendedServerSocket server, boolean persistent, PrintWriter err) throws IOException, InterruptedException {
        try (server) {
            if (!persistent) {
                serve(server.accept());  // one client; its failure is the command's
                return;
            }
            while (true) {
                ExtendedSocket socket = server.accept();
                Thread thread = new Thread(() -> {
                    try {
                        serve(socket);
                    } catch (UserError e) {
                        synchronized (err) {
                            err.println("extsock rping: " + e.getMessage());
                            err.flush();
                        }
                    }
                }, "rping server " + socket.getRemoteSocketAddress());
                thread.start();
            }
        }
    }

    private void serve(ExtendedSocket socket) {
        String client = Sockets.peer(socket);
        try (socket) {
            RpingPeer peer = setup.peerOf(socket);
            options.debug("accepting client connection request from %s", client);
            while (true) {
                RemoteBuffer source;
                try {
                    source = peer.receiveInfo();
                } catch (RpingPeer.PeerDisconnected e) {
                    if (!e.peerClosed()) {
                        throw e;  // a Terminate either way is a failure, not the client's goodbye
                    }
                    options.debug("server DISCONNECT EVENT from %s", client);
                    return;  // between pings: the client is done
                }
                if (source.length() > options.size()) {
                    throw new SocketException("the client's ping data is " + source.length()
                            + " bytes, more than this server's -S " + options.size());
                }
                peer.read(source);
                if (options.verbose()) {
                    options.print("server ping data: " + RpingData.text(peer.rdmaData(), (int) source.length()));
                }
                peer.goAhead();
                RemoteBuffer sink = peer.receiveInfo();
                int length = Math.min(RpingData.stringLength(peer.rdmaData(), options.size()) + 1, options.size());
                if (length > sink.length()) {
                    throw new SocketException("the client's sink of " + sink.length() + " bytes is smaller than its "
                            + length + " bytes of ping data");
                }
                peer.write(sink, length);
                peer.goAhead();
            }
        } catch (RpingPeer.PeerDisconnected e) {
            throw new UserError(e.who("the client " + client) + " in the middle of a ping: " + e.getMessage(), e);
        } catch (IOException e) {
            throw UserErrors.during("serving " + client, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
