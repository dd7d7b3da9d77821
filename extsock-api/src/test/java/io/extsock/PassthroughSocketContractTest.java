package io.extsock;

import io.extsock.contract.SocketContract;
import io.extsock.contract.SocketKind;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;

/**
 * The Socket contract for passthrough ExtendedSockets; plain sockets run too, as a check that
 * every scenario is deterministic against itself.
 */
class PassthroughSocketContractTest extends SocketContract {

    static final SocketKind PASSTHROUGH = new SocketKind() {
        @Override
        public String name() {
            return "ExtendedSocket (passthrough)";
        }

        @Override
        public Socket newSocket() {
            return new ExtendedSocket();
        }

        @Override
        public ServerSocket newServerSocket() throws java.io.IOException {
            return new ExtendedServerSocket();
        }

        @Override
        public String toString() {
            return name();
        }
    };

    @Override
    protected List<SocketKind> kinds() {
        return List.of(PLAIN, PASSTHROUGH);
    }
}
