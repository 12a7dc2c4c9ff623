import KioskConfig
import Testing

/// Where the control socket is under `auto`, for the kiosk and its clients alike; a path named wins.
@Suite struct ControlSocketPlaceTests {
    /// The unit's environment (systemd's RUNTIME_DIRECTORY, and the XDG_RUNTIME_DIR of the session its
    /// PAMName= opens), a login session, sudo or a console without one.
    @Test(arguments: [
        (["RUNTIME_DIRECTORY": "/run/kiosk", "XDG_RUNTIME_DIR": "/run/user/990"], ControlSocketPlace.service, "/run/kiosk/control"),
        (["RUNTIME_DIRECTORY": "/run/kiosk/:/run/kiosk-cache"], .service, "/run/kiosk/control"),
        // Another unit's folder is not the kiosk's: the clients would not look there.
        (["RUNTIME_DIRECTORY": "/run/signage", "XDG_RUNTIME_DIR": "/run/user/990"], .session, "/run/user/990/kiosk-control"),
        (["XDG_RUNTIME_DIR": "/run/user/1000/"], .session, "/run/user/1000/kiosk-control"),
        // A relative XDG_RUNTIME_DIR is to be ignored (the XDG base directory specification), an empty one is unset.
        (["XDG_RUNTIME_DIR": "run/user/1000"], .temporary, "/tmp/kiosk-990/control"),
        (["XDG_RUNTIME_DIR": ""], .temporary, "/tmp/kiosk-990/control"),
        ([:], .temporary, "/tmp/kiosk-990/control"),
        (["TMPDIR": "/var/tmp/"], .temporary, "/var/tmp/kiosk-990/control"),
    ])
    func theKiosksPlace(environment: [String: String], place: ControlSocketPlace, path: String) {
        let chosen = ControlSocketPlace.chosen(environment: environment, uid: 990)
        #expect(chosen.place == place && chosen.path == path)
        // A client looks in the same order, and the kiosk's place is among what it looks at.
        let candidates = ControlSocketPlace.candidates(environment: environment, uid: 990)
        #expect(candidates.contains(path) && candidates.first == "/run/kiosk/control")
    }

    @Test func aClientLooksAtEveryPlaceInTheKiosksOrder() {
        #expect(
            ControlSocketPlace.candidates(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000) == [
                "/run/kiosk/control", "/run/user/1000/kiosk-control", "/tmp/kiosk-1000/control",
            ])
        #expect(ControlSocketPlace.candidates(environment: [:], uid: 0) == ["/run/kiosk/control", "/tmp/kiosk-0/control"])
    }

    /// `auto` by default; a path, `auto` and `off` from the file, the variable and the flag; the command line
    /// can put `auto` back over a file's path.
    @Test func theSetting() throws {
        #expect(KioskConfiguration.default.controlSocket == .auto)
        #expect(try configuration("control-socket = \"/srv/kiosk.sock\"\n").controlSocket == .path("/srv/kiosk.sock"))
        #expect(try configuration("control-socket = \"OFF\"\n").controlSocket == .off)
        #expect(try configuration("control-socket = \"/srv/k\"\n", environment: ["KIOSK_CONTROL_SOCKET": "auto"]).controlSocket == .auto)
        var fromFile = try configuration("control-socket = \"/srv/k\"\n")
        let settings = try CommandLineSettings.parse(["--control-socket", "auto"]).get()
        #expect(settings.apply(to: &fromFile, vocabulary: kioskVocabulary).isEmpty && fromFile.controlSocket == .auto)
        #expect(
            messages("control-socket = \"here\"\n") == [
                "\(configPath):1:18: control-socket: \"here\" is not valid; valid: an absolute path of at most 107 bytes, auto or off"
            ])
    }
}
