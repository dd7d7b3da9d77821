package io.extsock.rdma.provider;

import io.extsock.rdma.events.DeviceEventThread;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The event thread of each device, started on the device's first connection and kept for the
 * JVM's life (a daemon that sleeps in poll while nothing happens).
 */
final class DeviceEvents {

    private static final ConcurrentMap<String, DeviceEventThread> THREADS = new ConcurrentHashMap<>();

    private DeviceEvents() {
    }

    /**
     * @param device the device's name (or the names of every device, for a wildcard listener)
     * @return its event thread
     */
    static DeviceEventThread of(String device) throws IOException {
        DeviceEventThread thread = THREADS.get(device);
        if (thread != null) {
            return thread;
        }
        synchronized (THREADS) {
            thread = THREADS.get(device);
            if (thread == null) {
                thread = new DeviceEventThread(device);
                THREADS.put(device, thread);
            }
            return thread;
        }
    }
}
