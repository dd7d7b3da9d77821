package io.extsock.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The servers' accept loop, with its option: a thread per connection, and one connection's
 * failure (a client not in IWARP_MODE, say) is a line on standard error, not the server's end.
 */
public final class ServerLoop {

    /** What a server does with one connection. */
    public interface Handler {
        /** Serves the connection; returns a line for standard output, or null. */
        String serve(Socket socket) throws IOException, InterruptedException;
    }

    @Option(names = "--connections", paramLabel = "N", defaultValue = "0",
            description = "Exit after serving N connections (default: serve until stopped).")
    public int connections;

    /**
     * Accepts until {@code --connections} were accepted (forever without it), then waits for
     * their handlers; {@code activity} ("echoing") words the failures.
     */
    public void run(ServerSocket server, CommandLine commandLine, String activity, Handler handler)
            throws IOException, InterruptedException {
        List<Thread> handlers = new ArrayList<>();
        try (server) {
            for (int served = 0; connections == 0 || served < connections; served++) {
                Socket socket = server.accept();
                Thread thread = new Thread(() -> serve(socket, commandLine, activity, handler),
                        commandLine.getCommandSpec().qualifiedName() + " " + socket.getRemoteSocketAddress());
                thread.start();
                handlers.add(thread);
            }
        }
        for (Thread thread : handlers) {
            thread.join();
        }
    }

    private static void serve(Socket socket, CommandLine commandLine, String activity, Handler handler) {
        String peer = String.valueOf(socket.getRemoteSocketAddress());
        String line;
        String failure = null;
        try (socket) {
            line = handler.serve(socket);
        } catch (UserError e) {
            line = null;
            failure = e.getMessage();
        } catch (IOException e) {
            line = null;
            failure = UserErrors.during(activity, e).getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            line = null;
            failure = e.getClass().getSimpleName() + ": " + UserErrors.message(e);
        }
        if (line != null) {
            print(commandLine.getOut(), line);
        }
        if (failure != null) {
            print(commandLine.getErr(), UserErrorHandler.prefix(commandLine) + "connection from " + peer + ": " + failure);
        }
    }

    /** One whole line, whichever connection's thread prints it. */
    public static void print(PrintWriter out, String line) {
        synchronized (out) {
            out.println(line);
            out.flush();
        }
    }
}
