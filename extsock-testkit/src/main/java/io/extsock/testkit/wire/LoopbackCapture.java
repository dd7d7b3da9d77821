package io.extsock.testkit.wire;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * dumpcap capturing one TCP port on lo into a pcapng file, from {@link #start} until
 * {@link #stop}. Started only once dumpcap says it is capturing, so the first SYN of the
 * traffic that follows is in the file: without the MPA Request Wireshark decodes nothing.
 */
final class LoopbackCapture implements AutoCloseable {

    private static final Pattern DROPPED = Pattern.compile("Packets received/dropped on interface '[^']*': \\d+/(\\d+)");

    private final Process dumpcap;
    private final StringBuffer log = new StringBuffer();
    private final CountDownLatch capturing = new CountDownLatch(1);
    private volatile boolean started;
    private final Thread reader;

    private LoopbackCapture(Process dumpcap) {
        this.dumpcap = dumpcap;
        this.reader = new Thread(this::readLog, "dumpcap-log-" + dumpcap.pid());
        reader.setDaemon(true);
        reader.start();
    }

    static LoopbackCapture start(int port, Path pcap) throws IOException, InterruptedException {
        Process dumpcap = new ProcessBuilder("dumpcap", "-q", "-i", "lo", "-f", "tcp port " + port, "-w", pcap.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        dumpcap.getOutputStream().close();
        LoopbackCapture capture = new LoopbackCapture(dumpcap);
        if (!capture.capturing.await(30, TimeUnit.SECONDS) || !capture.started || !dumpcap.isAlive()) {
            capture.stop();
            throw new IOException("dumpcap did not start capturing on lo: " + capture.log);
        }
        // "Capturing on" comes as the filter is attached; a moment more costs nothing.
        Thread.sleep(200);
        return capture;
    }

    private void readLog() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(dumpcap.getErrorStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                log.append(line).append('\n');
                if (line.contains("Capturing on")) {
                    started = true;
                    capturing.countDown();
                }
            }
        } catch (IOException ended) {
            // dumpcap went away; what it said is in the log
        } finally {
            capturing.countDown();
        }
    }

    /** Stops dumpcap (SIGTERM to its PID, which it takes as "finish the file") and waits for it. */
    void stop() throws InterruptedException {
        if (dumpcap.isAlive()) {
            dumpcap.destroy();
            if (!dumpcap.waitFor(20, TimeUnit.SECONDS)) {
                dumpcap.destroyForcibly();
                dumpcap.waitFor(10, TimeUnit.SECONDS);
            }
        }
        reader.join(5_000);
    }

    /** Packets the kernel or dumpcap dropped, if dumpcap said so on stopping; 0 otherwise. */
    long dropped() {
        Matcher matcher = DROPPED.matcher(log);
        long dropped = 0;
        while (matcher.find()) {
            dropped += Long.parseLong(matcher.group(1));
        }
        return dropped;
    }

    String log() {
        return log.toString();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

}
