package io.extsock.core.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The race in {@link QueuePairVerbs#register}: it sees the connection open, then the
 * connection ends (which closes the registry) before the registration. The registration must
 * fail as any other on an ended connection does: a checked {@link SocketException} (the API's
 * type: the engine's {@link QueuePairClosedException} stays inside) saying the connection ended,
 * never an unchecked exception.
 */
class RegisterWhenConnectionEndsTest {

    @Test
    @DisplayName("registry closed after the connection check: a checked exception naming the connection's end")
    void registryClosedAfterTheCheck(@TempDir Path directory) throws IOException {
        EmbeddedPair pair = EmbeddedPair.open(1, 64);
        EmbeddedPair.Side side = pair.responder();
        side.registry.closeAll();  // the end, as seen by a register that already passed its check
        IwarpConnection verbs = side.verbs();
        assertTrue(side.isConnected(), "the connection check still passes");

        SocketException plain = assertThrows(SocketException.class,
                () -> verbs.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE)));
        assertTrue(plain.getMessage().contains("connection has ended"), plain.getMessage());
        assertEquals(SocketException.class, plain.getClass(), "the API's type, not the engine's");
        assertInstanceOf(IOException.class, plain.getCause());

        SocketException pinned = assertThrows(SocketException.class,
                () -> verbs.registerPinned(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE)));
        assertTrue(pinned.getMessage().contains("connection has ended"), pinned.getMessage());

        Path file = Files.write(directory.resolve("f.bin"), new byte[64]);
        SocketException ofFile = assertThrows(SocketException.class,
                () -> verbs.registerFile(file, 0, 64, EnumSet.of(Access.REMOTE_READ)));
        assertTrue(ofFile.getMessage().contains("connection has ended"), ofFile.getMessage());
    }

    @Test
    @DisplayName("after the connection ended: the same exception, with how it ended")
    void registerAfterTheEnd(@TempDir Path directory) throws IOException {
        EmbeddedPair pair = EmbeddedPair.open(2, 64);
        EmbeddedPair.Side side = pair.responder();
        side.queuePair.close();
        SocketException ended = assertThrows(SocketException.class,
                () -> side.verbs().register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE)));
        assertTrue(ended.getMessage().contains("the connection was closed"), ended.getMessage());
        SocketException ofFile = assertThrows(SocketException.class,
                () -> side.verbs().registerFile(directory.resolve("missing.bin"), 0, 0, EnumSet.noneOf(Access.class)));
        assertTrue(ofFile.getMessage().contains("the connection was closed"), ofFile.getMessage());
    }

    @Test
    @DisplayName("a refusal that is not the connection's end keeps its own exception")
    void otherRefusalsAreNotReportedAsTheEnd() throws IOException {
        EmbeddedPair pair = EmbeddedPair.open(3, 64);
        IwarpConnection verbs = pair.responder().verbs();
        assertThrows(IllegalArgumentException.class, () -> verbs.register(ByteBuffer.allocateDirect(8).asReadOnlyBuffer(),
                EnumSet.of(Access.REMOTE_WRITE)));
    }
}
