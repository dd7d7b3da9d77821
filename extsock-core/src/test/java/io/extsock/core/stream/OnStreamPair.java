package io.extsock.core.stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test on a fresh {@link StreamPair} per test method: its writer (the initiator's stream)
 * and its reader (the responder's), closed after each test.
 */
abstract class OnStreamPair {

    StreamPair pair;
    IwarpStream writer;
    IwarpStream reader;

    @BeforeEach
    void connect() throws Exception {
        pair = StreamPair.open();
        writer = pair.writer;
        reader = pair.reader;
    }

    @AfterEach
    void close() throws Exception {
        pair.close();
    }
}
