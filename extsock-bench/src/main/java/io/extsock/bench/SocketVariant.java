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

    /** Both ends switched to IWARP_MODE with the given options: the stream runs over RDMAP Sends. */
    static SocketVariant iwarp(String name, java.util.Map<java.net.SocketOption<?>, Object> options) {
        return new SocketVariant() {
            public String name() {
                return name;
            }

            public Socket newSocket() {
                return new ExtendedSocket();
            }

            public ServerSocket newServerSocket() throws IOException {
                return new ExtendedServerSocket();
            }

            @SuppressWarnings({"unchecked", "rawtypes"})
            public void prepare(Socket client, Socket server) throws IOException {
                for (java.util.Map.Entry<java.net.SocketOption<?>, Object> option : options.entrySet()) {
                    client.setOption((java.net.SocketOption) option.getKey(), option.getValue());
                    server.setOption((java.net.SocketOption) option.getKey(), option.getValue());
                }
                java.util.concurrent.CompletableFuture<Void> responder =
                        java.util.concurrent.CompletableFuture.runAsync(() -> {
                            try {
                                server.setOption(io.extsock.IwarpOptions.IWARP_MODE, true);
                            } catch (IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        });
                client.setOption(io.extsock.IwarpOptions.IWARP_MODE, true);
                responder.join();
            }
        };
    }

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
