import Glibc
import Testing

@testable import Seat

@Suite struct SeatErrorTests {
    @Test func descriptionNamesTheCallTheDeviceAndTheErrno() {
        #expect(
            SeatError.failed("libseat_open_device", errno: EPERM, path: "/dev/dri/card0").description
                == "libseat_open_device(\"/dev/dri/card0\"): Operation not permitted (errno 1)")
        #expect(
            SeatError.failed("libseat_open_seat", errno: ENOSYS).description
                == "libseat_open_seat(LIBSEAT_BACKEND=unset): Function not implemented (errno 38)")
        #expect(
            SeatError.failed("libseat_dispatch", errno: ENOTCONN).description
                == "libseat_dispatch: Transport endpoint is not connected (errno 107)")
    }

    /// errno is cleared before each call, so a stale value from an unrelated call is never blamed.
    @Test func staleErrnoIsNotReported() {
        Glibc.errno = EBADF
        let error = #expect(throws: SeatError.self) { try seatCheck("libseat_switch_session") { -1 } }
        #expect(error?.errno == 0)
    }

    @Test func successPassesTheResultThrough() throws {
        #expect(try seatCheck("libseat_open_device") { 7 } == 7)
    }
}
