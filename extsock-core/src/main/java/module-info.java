/** The software iWARP provider: MPA, DDP and RDMAP codecs, verbs and the progress engine. */
@SuppressWarnings("requires-automatic") // jnr-ffi ships no module-info, only an Automatic-Module-Name
module io.extsock.core {
    requires io.extsock.api;
    // Flight Recorder events (io.extsock.core.events)
    requires jdk.jfr;
    // mlock/munlock/getrlimit for pinned memory regions (io.extsock.core.verbs.MemoryPinning)
    requires org.jnrproject.ffi;
    // jnr-ffi generates its bindings with ASM; as an automatic module it cannot require it itself.
    requires org.objectweb.asm;
    requires org.objectweb.asm.commons;
    requires org.objectweb.asm.tree;
    requires org.objectweb.asm.tree.analysis;
    requires org.objectweb.asm.util;

    // jnr-ffi's generated binding (in an unnamed module) implements the interface in here.
    exports io.extsock.core.nativecall;

    provides io.extsock.spi.IwarpProvider with io.extsock.core.engine.SoftwareIwarpProvider;
}
