package io.extsock.examples.perf;

import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.WorkRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Posts one request several times at once: a posting list of copies of it (perftest's
 * --post_list), or the request alone for one. Posting copies each request, so one object
 * serves the whole list.
 */
final class RepeatedPost implements PerfPipeline.Post {

    private final IwarpConnection verbs;
    private final WorkRequest request;
    private final List<WorkRequest> list;

    RepeatedPost(IwarpConnection verbs, WorkRequest request, int most) {
        this.verbs = verbs;
        this.request = request;
        this.list = new ArrayList<>(most);
        for (int i = 0; i < most; i++) {
            list.add(request);
        }
    }

    @Override
    public void run(int count) throws IOException {
        if (count == 1) {
            verbs.post(request);
        } else {
            verbs.post(list.subList(0, count));
        }
    }
}
