package io.extsock.examples.rping;

import io.extsock.ExtendedSocket;
import io.extsock.examples.cli.Sockets;
import io.extsock.examples.cli.UserError;
import io.extsock.examples.cli.UserErrors;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;

/**
 * rping's client loop: per ping, fill the source buffer, advertise it, wait for the server's
 * "go ahead" (it has RDMA-Read the data), advertise the sink, wait again (it has RDMA-Written
 * the data back); then compare ({@code -V}) and print ({@code -v}).
 */
final class RpingClient {

    private final RpingOptions options;
    private final RpingData data = new RpingData();

    RpingClient(RpingOptions options) {
        this.options = options;
    }

    void run(ExtendedSocket socket, RpingPeer peer) {
        String server = Sockets.peer(socket);
        int ping = 0;
        try (socket) {
            for (; options.count() == 0 || ping < options.count(); ping++) {
                ping(peer, ping);
            }
        } catch (RpingPeer.PeerDisconnected e) {
            throw new UserError(e.who("the server " + server) + " during ping " + ping + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw UserErrors.during("ping " + ping + " with " + server, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void ping(RpingPeer peer, int ping) throws IOException, InterruptedException {
        ByteBuffer start = peer.startData();
        ByteBuffer sink = peer.rdmaData();
        data.fill(start, options.size(), ping);
        peer.advertiseSource();
        peer.receiveInfo();  // the server has read our data
        peer.advertiseSink();
        peer.receiveInfo();  // the server has written it back
        if (options.validate() && start.mismatch(sink) >= 0) {
            throw new SocketException("data mismatch! ping " + ping + ": sent \"" + RpingData.text(start, options.size())
                    + "\", got back \"" + RpingData.text(sink, options.size()) + "\"");
        }
        if (options.verbose()) {
            options.print("ping data: " + RpingData.text(sink, options.size()));
        }
    }
}
