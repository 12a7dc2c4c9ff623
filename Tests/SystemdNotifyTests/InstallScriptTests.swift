import Foundation
import Testing

/// scripts/install, always staged with DESTDIR into a temporary folder: it must never touch this
/// machine (no user, no systemctl, no udevadm). The QEMU system test `install` runs it for real.
@Suite struct InstallScriptTests {
    private let script = Deployment.root.appendingPathComponent("scripts/install").path
    private let files = FileManager.default

    /// A build folder as SwiftPM leaves it: the binary, its resource bundle, and a test target's bundle
    /// that is not part of the product.
    private func fakeBuild(in folder: URL, bundle: Bool = true) throws -> URL {
        let build = folder.appendingPathComponent("build")
        try files.createDirectory(at: build, withIntermediateDirectories: true)
        let binary = build.appendingPathComponent("kiosk")
        try "#!/bin/sh\necho kiosk\n".write(to: binary, atomically: true, encoding: .utf8)
        try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary.path)
        if bundle {
            let resources = build.appendingPathComponent("kiosk_KioskRuntime.resources")
            try files.createDirectory(at: resources, withIntermediateDirectories: true)
            try Data([0x89, 0x50, 0x4E, 0x47]).write(to: resources.appendingPathComponent("logo.png"))
        }
        let tests = build.appendingPathComponent("kiosk_GraphicsTests.resources")
        try files.createDirectory(at: tests, withIntermediateDirectories: true)
        return build
    }

    private func install(
        _ arguments: [String], stage: URL, prefix: String? = nil,
        sysconfdir: String? = nil, user: String? = nil
    ) throws -> Deployment.Output {
        try Deployment.run(
            script, arguments,
            environment: [
                "DESTDIR": stage.path, "PREFIX": prefix, "SYSCONFDIR": sysconfdir, "KIOSK_USER": user,
                "SWIFT_BUILD_FLAGS": nil,
            ], in: Deployment.root)
    }

    private func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test func stagesEveryFileAndTouchesNothingElse() throws {
        let folder = try Deployment.temporaryFolder()
        defer { Deployment.remove(folder) }
        let build = try fakeBuild(in: folder)
        let stage = folder.appendingPathComponent("stage")

        let result = try install(["--no-build", "--build-dir", build.path], stage: stage)
        #expect(result.status == 0, "\(result.all)")

        let binary = stage.appendingPathComponent("usr/local/bin/kiosk")
        #expect(files.isExecutableFile(atPath: binary.path))
        // The bundle sits next to the binary, where Bundle.module looks; test bundles stay behind.
        #expect(
            files.fileExists(
                atPath: stage.appendingPathComponent(
                    "usr/local/bin/kiosk_KioskRuntime.resources/logo.png"
                ).path))
        #expect(
            !files.fileExists(
                atPath: stage.appendingPathComponent(
                    "usr/local/bin/kiosk_GraphicsTests.resources"
                ).path))

        let unit = stage.appendingPathComponent("etc/systemd/system/kiosk.service")
        #expect(try read(unit) == read(Deployment.root.appendingPathComponent("Kiosk/kiosk.service")))
        let rules = stage.appendingPathComponent("etc/udev/rules.d")
        #expect(try files.contentsOfDirectory(atPath: rules.path) == ["70-kiosk.rules"])
        #expect(
            files.fileExists(
                atPath: stage.appendingPathComponent(
                    "usr/local/share/kiosk/99-kiosk-touchscreen.rules.example"
                ).path))

        // The system steps are listed for the target machine, not run here.
        #expect(result.stdout.contains("still to do as root"))
        #expect(result.stdout.contains("useradd --system"))
    }

    /// Kiosk/kiosk.toml comes from the config work; until it exists the script says so and goes on.
    /// Once it does, it is installed only where no config exists yet: an edited one is kept.
    @Test func exampleConfigNeverReplacesAnEditedOne() throws {
        let folder = try Deployment.temporaryFolder()
        defer { Deployment.remove(folder) }
        let build = try fakeBuild(in: folder)
        let stage = folder.appendingPathComponent("stage")
        let config = stage.appendingPathComponent("etc/kiosk/kiosk.toml")
        let example = Deployment.root.appendingPathComponent("Kiosk/kiosk.toml")

        let first = try install(["--no-build", "--build-dir", build.path], stage: stage)
        #expect(first.status == 0, "\(first.all)")
        guard files.fileExists(atPath: example.path) else {
            #expect(first.stdout.contains("Kiosk/kiosk.toml is not in this checkout"))
            #expect(!files.fileExists(atPath: config.path))
            return
        }
        // Installed with every setting commented out: it changes nothing until a person uncomments a line.
        let installed = try read(config), original = try read(example)
        #expect(installed.split(separator: "\n").allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty || $0.hasPrefix("#") })
        #expect(installed.contains("\n# backend = \"auto\"") && original.contains("\nbackend = \"auto\""))
        #expect(installed.split(separator: "\n").count == original.split(separator: "\n").count)
        try "# edited on the board\n".write(to: config, atomically: true, encoding: .utf8)
        let second = try install(["--no-build", "--build-dir", build.path], stage: stage)
        #expect(second.status == 0, "\(second.all)")
        #expect(try read(config) == "# edited on the board\n")
    }

    @Test func prefixAndUserReachTheUnit() throws {
        let folder = try Deployment.temporaryFolder()
        defer { Deployment.remove(folder) }
        let build = try fakeBuild(in: folder)
        let stage = folder.appendingPathComponent("stage")

        let result = try install(["--no-build", "--build-dir", build.path], stage: stage, prefix: "/opt/kiosk", user: "signage")
        #expect(result.status == 0, "\(result.all)")
        #expect(files.isExecutableFile(atPath: stage.appendingPathComponent("opt/kiosk/bin/kiosk").path))
        let unit = try read(stage.appendingPathComponent("etc/systemd/system/kiosk.service"))
        #expect(unit.contains("\nExecStart=/opt/kiosk/bin/kiosk run --config /etc/kiosk/kiosk.toml\n"))
        #expect(unit.contains("\nUser=signage\n") && !unit.contains("User=kiosk"))
        #expect(result.stdout.contains("useradd --system --user-group") && result.stdout.contains(" signage\n"))
    }

    /// An app of your own is installed beside kiosk and the unit runs it, with the same config file.
    @Test func anAppOfYourOwn() throws {
        let folder = try Deployment.temporaryFolder()
        defer { Deployment.remove(folder) }
        let build = try fakeBuild(in: folder)
        let app = build.appendingPathComponent("my-app")
        try "#!/bin/sh\necho app\n".write(to: app, atomically: true, encoding: .utf8)
        try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: app.path)
        let stage = folder.appendingPathComponent("stage")

        let result = try install(["--no-build", "--build-dir", build.path, "--app", app.path], stage: stage)
        #expect(result.status == 0, "\(result.all)")
        #expect(files.isExecutableFile(atPath: stage.appendingPathComponent("usr/local/bin/my-app").path))
        #expect(files.isExecutableFile(atPath: stage.appendingPathComponent("usr/local/bin/kiosk").path))
        let unit = try read(stage.appendingPathComponent("etc/systemd/system/kiosk.service"))
        #expect(unit.contains("\nExecStart=/usr/local/bin/my-app --config /etc/kiosk/kiosk.toml\n"))
        let missing = try install(["--no-build", "--build-dir", build.path, "--app", "/nonexistent/app"], stage: stage)
        #expect(missing.status == 2 && missing.stderr.contains("--app /nonexistent/app is not an executable"))
    }

    /// systemd and udev read /etc only: a SYSCONFDIR elsewhere would install a unit nothing ever starts.
    @Test func sysconfdirElsewhereIsRefused() throws {
        let folder = try Deployment.temporaryFolder()
        defer { Deployment.remove(folder) }
        let build = try fakeBuild(in: folder)
        let result = try install(
            ["--no-build", "--build-dir", build.path], stage: folder.appendingPathComponent("stage"),
            sysconfdir: "/opt/kiosk/etc")
        #expect(result.status == 2 && result.stderr.contains("SYSCONFDIR=/opt/kiosk/etc is not supported"))
        #expect(!files.fileExists(atPath: folder.appendingPathComponent("stage").path))
    }

    @Test func dryRunPrintsAndCreatesNothing() throws {
        let folder = try Deployment.temporaryFolder()
        defer { Deployment.remove(folder) }
        let build = try fakeBuild(in: folder)
        let stage = folder.appendingPathComponent("stage")

        let result = try install(["--dry-run", "--no-build", "--build-dir", build.path], stage: stage)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.contains("install -D -m 0755 \(build.path)/kiosk \(stage.path)/usr/local/bin/kiosk"))
        #expect(!files.fileExists(atPath: stage.path))
    }

    /// The kiosk compiles its resources in: a build without any resource bundle installs fine.
    @Test func aBuildWithoutResourceBundlesInstalls() throws {
        let folder = try Deployment.temporaryFolder()
        defer { Deployment.remove(folder) }
        let build = try fakeBuild(in: folder, bundle: false)
        let stage = folder.appendingPathComponent("stage")

        let result = try install(["--no-build", "--build-dir", build.path], stage: stage)
        #expect(result.status == 0, "\(result.all)")
        #expect(files.fileExists(atPath: stage.appendingPathComponent("usr/local/bin/kiosk").path))
    }
}
