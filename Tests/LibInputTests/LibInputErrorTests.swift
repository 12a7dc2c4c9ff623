import CLazyLibInput
import Glibc
import Testing

@testable import LibInput

@Suite struct LibInputErrorTests {
    @Test func descriptionNamesTheCallWhatItWasAboutAndTheErrno() {
        #expect(
            LibInputError.failed("libinput_path_add_device", errno: ENOENT, detail: "/dev/input/event9").description
                == "libinput_path_add_device(\"/dev/input/event9\"): No such file or directory (errno 2)")
        #expect(
            LibInputError.failed("libinput_dispatch", errno: EBADF).description
                == "libinput_dispatch: Bad file descriptor (errno 9)")
        #expect(
            LibInputError.failed("libinput_resume", errno: 0, detail: "seat0").description
                == "libinput_resume(\"seat0\"): failed without setting errno")
    }

    @Test func negativeErrnoReturnsBecomeErrors() throws {
        try inputCheck(0, "libinput_dispatch")
        let error = #expect(throws: LibInputError.self) { try inputCheck(-EINTR, "libinput_dispatch") }
        #expect(error?.errno == EINTR)
    }

    /// errno is cleared before each call, so a stale value from an unrelated call is never blamed.
    @Test func minusOneReportsOnlyTheCallsOwnErrno() {
        Glibc.errno = EBADF
        let error = #expect(throws: LibInputError.self) {
            try inputCheckErrno("libinput_udev_assign_seat", detail: "seat0") { -1 }
        }
        #expect(error?.errno == 0)
        #expect(error?.detail == "seat0")
    }

    @Test func nullWithoutErrnoIsReportedAsENOMEM() {
        Glibc.errno = EBADF
        let error = #expect(throws: LibInputError.self) { try inputCreate("libinput_path_create_context") { nil } }
        #expect(error?.errno == ENOMEM)
    }

    @Test func configStatusesMapToErrnos() throws {
        try configCheck(LIBINPUT_CONFIG_STATUS_SUCCESS, "libinput_device_config_calibration_set_matrix", device: "event4 (panel)")
        let unsupported = #expect(throws: LibInputError.self) {
            try configCheck(
                LIBINPUT_CONFIG_STATUS_UNSUPPORTED, "libinput_device_config_calibration_set_matrix",
                device: "event4 (panel)")
        }
        #expect(
            unsupported?.description
                == "libinput_device_config_calibration_set_matrix(\"event4 (panel)\"): Operation not supported (errno 95)")
        let invalid = #expect(throws: LibInputError.self) {
            try configCheck(LIBINPUT_CONFIG_STATUS_INVALID, "libinput_device_config_calibration_set_matrix", device: "event4")
        }
        #expect(invalid?.errno == EINVAL)
    }
}

@Suite struct CapabilitiesTests {
    /// The bits follow `enum libinput_device_capability`, so a raw value can be logged and read back.
    @Test func bitsFollowLibinputsEnum() {
        for (option, capability, _) in InputDevice.Capabilities.all {
            #expect(option.rawValue == 1 << capability.rawValue)
        }
    }

    @Test func descriptionUsesLibinputsNames() {
        #expect(InputDevice.Capabilities([.pointer, .gesture]).description == "pointer gesture")
        #expect(InputDevice.Capabilities.touch.description == "touch")
        #expect(InputDevice.Capabilities([]).description == "")
    }
}
