package io.extsock.core.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.Event;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/** A Flight Recorder recording of extsock's events, for tests: started, then stopped and read. */
public final class EventRecording {

    private EventRecording() {
    }

    /** A recording of these event types, started. */
    @SafeVarargs
    public static Recording start(Class<? extends Event>... types) {
        Recording recording = new Recording();
        for (Class<? extends Event> type : types) {
            recording.enable(type);
        }
        recording.start();
        return recording;
    }

    /** Stops the recording and reads every event it holds, through a file in {@code directory}. */
    public static List<RecordedEvent> stop(Recording recording, Path directory) throws IOException {
        recording.stop();
        Path file = Files.createTempFile(directory, "events", ".jfr");
        recording.dump(file);
        return RecordingFile.readAllEvents(file);
    }

    /** The events of one name ("io.extsock.NegotiationFailed", say), in order. */
    public static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).collect(Collectors.toList());
    }
}
