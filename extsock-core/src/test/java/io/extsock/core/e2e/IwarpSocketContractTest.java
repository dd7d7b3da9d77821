package io.extsock.core.e2e;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.contract.SocketContract;
import io.extsock.contract.SocketKind;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;

/**
 * The java.net.Socket contract with both ends of every prepared connection switched to
 * IWARP_MODE: unmodified stream code cannot tell, except for urgent data (documented).
 */
class IwarpSocketContractTest extends SocketContract {

    static final SocketKind IWARP_MODE = new SocketKind() {
        @Override
        public String name() {
            return "ExtendedSocket (IWARP_MODE)";
        }

        @Override
        public Socket newSocket() {
            return new ExtendedSocket();
        }

        @Override
        public ServerSocket newServerSocket() throws IOException {
            return new ExtendedServerSocket();
        }

        @Override
        public void prepareConnected(Socket socket, boolean accepted) throws IOException {
            socket.setOption(IwarpOptions.IWARP_MODE, true);
        }

        @Override
        public boolean supportsUrgentData() {
            return false;
        }

        @Override
        public String toString() {
            return name();
        }
    };

    @Override
    protected List<SocketKind> kinds() {
        return List.of(IWARP_MODE);
    }
}
