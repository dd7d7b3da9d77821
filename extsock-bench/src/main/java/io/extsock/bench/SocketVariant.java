package io.extsock.bench;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;

/** A way of making the sockets under measurement. */
interface SocketVariant {

    String name();

    Socket newSocket() throws IOException;

    ServerSocket newServerSocket() throws IOException;

    /** Runs once both ends are connected (a mode switch goes here). */
    default void prepare(Socket client, Socket server) throws IOException {
    }

    SocketVariant PLAIN = new SocketVariant() {
        public String name() {
            return "java.net.Socket";
        }

        public Socket newSocket() {
            return new Socket();
        }

        public ServerSocket newServerSocket() throws IOException {
            return new ServerSocket();
        }
    };

    SocketVariant PASSTHROUGH = new SocketVariant() {
        public String name() {
            return "ExtendedSocket";
        }

        public Socket newSocket() {
            return new ExtendedSocket();
        }

        public ServerSocket newServerSocket() throws IOException {
            return new ExtendedServerSocket();
        }
    };
}
