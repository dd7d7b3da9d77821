package io.extsock.core.verbs;

import java.util.ArrayDeque;

/**
 * The queue pair's pools of send- and receive-queue entries, so that posting allocates nothing
 * in the steady state: an entry is taken when posted and returns when its completion has been
 * reported. Every method runs under the queue pair's lock.
 */
final class WorkPools {

    private final ArrayDeque<SendWork> sends = new ArrayDeque<>();
    private final ArrayDeque<ReceiveWork> receives = new ArrayDeque<>();

    WorkPools(int prefilled) {
        for (int i = 0; i < prefilled; i++) {
            sends.add(new SendWork());
            receives.add(new ReceiveWork());
        }
    }

    SendWork takeSend() {
        SendWork work = sends.poll();
        return work != null ? work : new SendWork();
    }

    ReceiveWork takeReceive() {
        ReceiveWork work = receives.poll();
        return work != null ? work : new ReceiveWork();
    }

    void recycle(SendWork work) {
        work.clear();
        if (sends.size() < QueuePair.SEND_QUEUE_DEPTH) {
            sends.add(work);
        }
    }

    void recycle(ReceiveWork work) {
        work.clear();
        if (receives.size() < QueuePair.RECEIVE_QUEUE_DEPTH) {
            receives.add(work);
        }
    }
}
