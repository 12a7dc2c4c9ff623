import DRM
import Glibc
import Testing

@testable import DRMDisplay

/// `DRMDevice` is a `KMSCard` by its own calls: through the protocol, a file that is no DRM card fails as
/// the wrapper does, naming the C function and its errno.
@Suite struct KMSCardConformanceTests {
    @Test func theKernelsCardAnswersThroughTheProtocolAsItself() throws {
        let card: any KMSCard = try DRMDevice.open(path: "/dev/null")
        #expect(!card.enableAtomic())
        #expect(card.cursorSize == (64, 64))
        do {
            _ = try card.resources()
            Issue.record("drmModeGetResources on /dev/null succeeded")
        } catch {
            #expect(error.operation == "drmModeGetResources" && error.detail == "/dev/null")
        }
        do {
            _ = try card.dumbBuffer(width: 64, height: 64, format: DRMFormat.xrgb8888)
            Issue.record("drmModeCreateDumbBuffer on /dev/null succeeded")
        } catch {
            #expect(error.operation == "drmModeCreateDumbBuffer" && error.detail == "64x64")
        }
        // An empty request is committed by libdrm without asking the kernel: this one has a change.
        let request = DRMAtomicRequest()
        try request.set(object: 31, property: DRMPropertyID(rawValue: 7), value: 1)
        do {
            try card.commit(request, flags: [.testOnly])
            Issue.record("drmModeAtomicCommit on /dev/null succeeded")
        } catch {
            #expect(error.operation == "drmModeAtomicCommit(TEST_ONLY)" && error.errno == ENOTTY)
        }
    }
}
