import CEC
import Glibc
import Testing

@Suite struct CECMessageTests {
    static let playback = CECLogicalAddress.playbackDevice1

    /// The messages the kiosk sends, byte for byte as HDMI-CEC 1.4 §6 and table 8 lay them out (what
    /// `cec-ctl --monitor` prints for them in the system test).
    static let encodings: [(CECMessage, [UInt8])] = [
        (.standby(from: playback), [0x40, 0x36]),
        (.standby(from: playback, to: .broadcast), [0x4f, 0x36]),
        (.standby(from: .tuner1), [0x30, 0x36]),
        (.imageViewOn(from: playback), [0x40, 0x04]),
        // An adapter without a logical address may still wake the TV (the kernel allows this one).
        (.imageViewOn(from: .unregistered), [0xf0, 0x04]),
        (.activeSource(from: playback, physicalAddress: CECPhysicalAddress(spelling: "1.0.0.0")!), [0x4f, 0x82, 0x10, 0x00]),
        (.activeSource(from: .playbackDevice2, physicalAddress: CECPhysicalAddress(spelling: "2.1.0.0")!), [0x8f, 0x82, 0x21, 0x00]),
        (.activeSource(from: playback, physicalAddress: CECPhysicalAddress(spelling: "3.4.5.6")!), [0x4f, 0x82, 0x34, 0x56]),
        (CECMessage(initiator: playback, destination: .tv, opcode: nil), [0x40]),
    ]

    @Test(arguments: encodings)
    func encoding(message: CECMessage, bytes: [UInt8]) {
        #expect(message.bytes == bytes)
        #expect(CECMessage(bytes: bytes) == message)
    }

    @Test func broadcastAndDirect() {
        #expect(CECMessage.activeSource(from: Self.playback, physicalAddress: .invalid).isBroadcast)
        #expect(!CECMessage.standby(from: Self.playback).isBroadcast)
        #expect(CECMessage.imageViewOn(from: Self.playback).destination == .tv)
    }

    @Test(
        arguments: [
            ([], false), ([0x40], true), (Array(repeating: 0x11, count: 16), true), (Array(repeating: 0x11, count: 17), false),
        ] as [([UInt8], Bool)])
    func decodingLengths(bytes: [UInt8], valid: Bool) {
        #expect((CECMessage(bytes: bytes) != nil) == valid)
    }

    @Test(arguments: [
        (CECMessage.standby(from: playback), "Standby (0x36) from 4 to 0 [40:36]"),
        (.imageViewOn(from: .unregistered), "Image View On (0x04) from 15 to 0 [f0:04]"),
        (
            .activeSource(from: playback, physicalAddress: CECPhysicalAddress(rawValue: 0x1000)),
            "Active Source (0x82) from 4 to all [4f:82:10:00]"
        ),
        (CECMessage(initiator: playback, destination: .tv, opcode: CECOpcode(rawValue: 0x9f)), "0x9f from 4 to 0 [40:9f]"),
        (CECMessage(initiator: playback, destination: .playbackDevice1, opcode: nil), "Poll from 4 to 4 [44]"),
    ])
    func description(message: CECMessage, text: String) {
        #expect(message.description == text)
    }
}

@Suite struct CECAddressTests {
    @Test(
        arguments: [
            ("0.0.0.0", 0x0000), ("1.0.0.0", 0x1000), ("2.1.0.0", 0x2100), ("f.f.f.f", 0xffff), ("a.b.c.d", 0xabcd),
        ] as [(String, UInt16)])
    func physicalAddressSpelling(text: String, value: UInt16) {
        let address = CECPhysicalAddress(spelling: text)
        #expect(address?.rawValue == value)
        #expect(address?.description == text)
    }

    @Test(arguments: ["", "1.0.0", "1.0.0.0.0", "10.0.0.0", "g.0.0.0", "1..0.0", "1.0.0.0 "])
    func physicalAddressNotSpelled(text: String) {
        #expect(CECPhysicalAddress(spelling: text) == nil)
    }

    @Test func physicalAddressValidity() {
        #expect(!CECPhysicalAddress.invalid.isValid)
        #expect(CECPhysicalAddress(rawValue: 0).isValid)
        #expect(CECPhysicalAddress(rawValue: 0x1234).bytes == [0x12, 0x34])
    }

    @Test func logicalAddresses() {
        #expect(CECLogicalAddress(rawValue: 16) == nil)
        #expect(CECLogicalAddress(rawValue: 0xff) == nil)
        #expect(CECLogicalAddress(rawValue: 4) == .playbackDevice1)
        #expect(CECLogicalAddress.broadcast == .unregistered)
        #expect(CECLogicalAddress.tv.description == "TV (0)")
        #expect(CECLogicalAddress.playbackDevice1.description == "Playback Device 1 (4)")
        #expect(CECLogicalAddress.tuner1 < .playbackDevice1)
    }

    @Test(
        arguments: [
            (CECTransmitStatus.ok, "OK", true), ([.notAcknowledged, .maximumRetries], "NACK, max retries", false),
            ([], "pending", false), (.aborted, "aborted", false),
        ] as [(CECTransmitStatus, String, Bool)])
    func transmitStatus(status: CECTransmitStatus, text: String, ok: Bool) {
        #expect(status.description == text)
        #expect(status.isOK == ok)
    }
}

@Suite struct CECDeviceErrorTests {
    /// Errors name the call, the device and the errno, as the other wrappers' do.
    @Test func openFailureNamesThePath() {
        #expect(throws: CECError(operation: "open", errno: 2, detail: "/nonexistent/cec0")) {
            try CECDevice.open(path: "/nonexistent/cec0")
        }
        let error = CECError(operation: "open", errno: 2, detail: "/nonexistent/cec0")
        #expect(error.description == "open(/nonexistent/cec0): No such file or directory (errno 2)")
    }

    /// A descriptor that is no CEC adapter answers every request with ENOTTY.
    @Test func ioctlFailureNamesTheRequest() throws {
        let device = try CECDevice.open(path: "/dev/null")
        #expect(throws: CECError(operation: "CEC_ADAP_G_CAPS", errno: 25, detail: "/dev/null")) { try device.capabilities() }
        do {
            _ = try device.connector()
            Issue.record("CEC_ADAP_G_CONNECTOR_INFO succeeded on /dev/null")
        } catch {
            #expect(error.isUnsupported)
            #expect(error.description == "CEC_ADAP_G_CONNECTOR_INFO(/dev/null): Inappropriate ioctl for device (errno 25)")
        }
    }

    @Test func nodesInNumberOrder() throws {
        let folder = "/tmp/cec-nodes-\(getpid())"
        mkdir(folder, 0o755)
        defer {
            for name in ["cec10", "cec2", "cec0", "cecx", "video0"] { unlink("\(folder)/\(name)") }
            rmdir(folder)
        }
        for name in ["cec10", "cec2", "cec0", "cecx", "video0"] { close(creat("\(folder)/\(name)", 0o644)) }
        #expect(CECDevice.nodes(in: folder) == ["\(folder)/cec0", "\(folder)/cec2", "\(folder)/cec10"])
        #expect(CECDevice.nodes(in: "/nonexistent").isEmpty)
    }
}
