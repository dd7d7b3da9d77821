package io.extsock.core.verbs;

import io.extsock.core.rdmap.MessageWriter;
import io.extsock.core.rdmap.SegmentReader;
import io.extsock.core.rdmap.SegmentSink;
import java.util.Objects;
import java.util.function.Function;

/**
 * The codecs one queue pair speaks through, built by the engine (the composition root) and
 * handed down: the transmit side's {@link MessageWriter} (RDMAP/DDP segmenter over an MPA
 * framer) and the receive side's {@link SegmentReader} (MPA deframer under the RDMAP/DDP
 * decoder). The reader is made for the queue pair's receive side, the sink it delivers to,
 * hence a function: the queue pair calls it once, in its constructor.
 *
 * @param writer frames the queue pair's messages into gathering writes
 * @param reader makes the reader that feeds the given sink
 */
public record WirePipeline(MessageWriter writer, Function<SegmentSink, SegmentReader> reader) {

    public WirePipeline {
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(reader, "reader");
    }
}
