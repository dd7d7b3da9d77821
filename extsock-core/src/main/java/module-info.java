/** The software iWARP provider: MPA, DDP and RDMAP codecs, verbs and the progress engine. */
@SuppressWarnings("requires-automatic") // jnr-ffi ships no module-info, only an Automatic-Module-Name
module io.extsock.core {
    requires io.extsock.api;
    // mlock/munlock/getrlimit for pinned memory regions (io.extsock.core.verbs.MemoryPinning)
    requires org.jnrproject.ffi;
}
