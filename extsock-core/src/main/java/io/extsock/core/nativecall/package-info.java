/**
 * The native calls extsock makes through jnr-ffi (mlock for pinned regions). Exported only
 * because jnr-ffi's generated implementations live outside this module; not an API.
 */
package io.extsock.core.nativecall;
