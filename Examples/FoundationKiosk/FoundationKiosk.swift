// An app of your own that imports Foundation beside KioskKit, as an app ported from UIKit does: it compiles
// unchanged (IndexPath and AffineTransform are KioskKit's, whatever Foundation names), and Foundation's
// Timer, RunLoop.main.perform and NotificationCenter work, because the runtime runs CoreFoundation's main
// run loop when the program has Foundation (the kiosk itself does not link it).
//
//   swift run foundation-kiosk -- --exit-after 2    # headless here; prints what fired, for the tests
//
// Each line it prints starts with "foundation-kiosk:" and is flushed at once (the tests read them).

import Foundation
import KioskKit
import KioskRuntime

@MainActor
final class FoundationApp: ApplicationDelegate {
    private var window: Window?
    private let status = Label(text: "waiting", font: .system(size: 32))
    private let rooms = ["Lobby", "Garden", "Harbour"]
    private var observer: NSObjectProtocol?

    func applicationDidFinishLaunching(_ application: Application) {
        let window = Window(screen: Screen.main)
        window.backgroundColor = .white
        status.frame = Rect(x: 20, y: 20, width: window.bounds.width - 40, height: 50)
        window.addSubview(status)
        let list = TableView(frame: Rect(x: 0, y: 80, width: window.bounds.width, height: window.bounds.height - 80))
        list.register(TableViewCell.self, forCellReuseIdentifier: "room")
        list.dataSource = self
        window.addSubview(list)
        window.makeKeyAndVisible()
        self.window = window

        let first = IndexPath(row: 0, section: 0)
        let turn = AffineTransform(rotationAngle: 0)
        say("index path \(first.row),\(first.section); transform identity \(turn.isIdentity)")

        let name = Notification.Name("RoomChosen")
        observer = NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { note in
            let room = note.userInfo?["room"] as? String ?? "?"
            MainActor.assumeIsolated { self.say("notification \(room)") }
        }
        RunLoop.main.perform {
            MainActor.assumeIsolated { self.say("run loop perform") }
        }
        _ = Timer.scheduledTimer(withTimeInterval: 0.2, repeats: false) { _ in
            MainActor.assumeIsolated {
                self.status.text = "timer fired"
                self.say("timer fired")
                NotificationCenter.default.post(name: name, object: nil, userInfo: ["room": self.rooms[1]])
            }
        }
    }

    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data("foundation-kiosk: \(line)\n".utf8))
    }
}

extension FoundationApp: TableViewDataSource {
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { rooms.count }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "room", for: indexPath)
        cell.textLabel.text = rooms[indexPath.row]
        return cell
    }
}

@main
struct FoundationKiosk {
    static func main() {
        KioskRuntime.main { _ in FoundationApp() }
    }
}
