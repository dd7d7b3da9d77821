package io.extsock.examples.cli;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/**
 * Work on a thread of its own. Blocking work (accepting, serving a connection) must not go to
 * the common pool: on two cores it has a single thread, and on recent JDKs CompletableFuture's
 * async methods use it, so one blocked task would stall every other.
 */
public final class Background {

    private Background() {
    }

    public static <T> Future<T> start(String name, Callable<T> work) {
        FutureTask<T> task = new FutureTask<>(work);
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        return task;
    }

    /** What an in-process server does with one accepted connection. */
    public interface Connection {
        void serve(Socket socket) throws IOException, InterruptedException;
    }

    /**
     * Accepts on {@code server} until it closes, serving each connection on a daemon thread of
     * its own and closing it after; a connection's failure is its client's to report.
     */
    public static void serveEachConnection(ServerSocket server, String name, Connection connection) {
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                Socket socket;
                try {
                    socket = server.accept();
                } catch (IOException closed) {
                    return;
                }
                Thread handler = new Thread(() -> {
                    try (socket) {
                        connection.serve(socket);
                    } catch (IOException | InterruptedException e) {
                        // the client's end reports what went wrong
                    }
                }, name + "-connection");
                handler.setDaemon(true);
                handler.start();
            }
        }, name);
        acceptor.setDaemon(true);
        acceptor.start();
    }
}
