import Testing

@testable import KioskConfig

/// `[power]` and its schedules: spellings, messages, and what a schedule says at a given local time.
struct PowerScheduleTests {
    private func configuration(_ text: String) throws -> KioskConfiguration {
        try KioskConfiguration.parse(text: text, path: "/etc/kiosk/kiosk.toml").get()
    }

    private func messages(_ text: String) -> [String] {
        guard case .failure(let errors) = KioskConfiguration.parse(text: text, path: "/etc/kiosk/kiosk.toml") else { return [] }
        return errors.problems.map(\.description)
    }

    @Test func weekdaysEveningToMorning() throws {
        let power = try configuration(
            """
            [[power.schedule]]
            days = "mon-fri"
            off = "22:00"
            on = "07:00"
            """
        ).power
        #expect(power.wakeDuringSchedule)
        let schedule = try #require(power.schedules.first)
        #expect(schedule.days == [.monday, .tuesday, .wednesday, .thursday, .friday] && schedule.off == 22 * 60 && schedule.on == 7 * 60)
        // Off from Monday 22:00 to Tuesday 07:00 ... Friday 22:00 to Saturday 07:00; Sunday night and Monday
        // morning are on (the Sunday evening belongs to no listed day).
        let table: [(PowerSchedule.Weekday, String, Bool)] = [
            (.monday, "21:59", false), (.monday, "22:00", true), (.tuesday, "00:00", true), (.tuesday, "06:59", true),
            (.tuesday, "07:00", false), (.friday, "23:30", true), (.saturday, "06:00", true), (.saturday, "07:00", false),
            (.saturday, "22:30", false), (.sunday, "23:00", false), (.monday, "06:00", false),
        ]
        for (day, time, off) in table {
            let at = LocalTime(weekday: day, minute: PowerSchedule.minutes(time)!)
            #expect(power.isScheduledOff("HDMI-A-1", at: at) == off, "\(day) \(time)")
        }
    }

    @Test func daytimeRangesListsAndScreens() throws {
        let power = try configuration(
            """
            [power]
            wake-during-schedule = false

            [[power.schedule]]
            days = ["sat", "Sunday"]
            off = "12:00"
            on = "13:30"
            screens = ["HDMI-A-2"]
            """
        ).power
        #expect(!power.wakeDuringSchedule)
        let noon = LocalTime(weekday: .sunday, minute: 12 * 60 + 15)
        #expect(power.isScheduledOff("HDMI-A-2", at: noon) && !power.isScheduledOff("DP-1", at: noon))
        #expect(!power.isScheduledOff("HDMI-A-2", at: LocalTime(weekday: .monday, minute: 12 * 60 + 15)))
    }

    @Test(arguments: [
        ("daily", 7), ("weekdays", 5), ("weekends", 2), ("fri-mon", 4), ("Wednesday", 1), ("sun-sun", 1),
    ])
    func daySpellings(text: String, count: Int) {
        #expect(PowerSchedule.days(text)?.count == count)
    }

    @Test func mistakesAreNamedWithTheirLine() {
        #expect(
            messages(
                """
                [[power.schedule]]
                days = "mon-fry"
                off = "25:00"
                on = "7"
                colour = "red"
                """
            ) == [
                #"/etc/kiosk/kiosk.toml:2:8: power.schedule[0].days: "mon-fry" names no day; valid: \#(PowerSchedule.validDays)"#,
                #"/etc/kiosk/kiosk.toml:3:7: power.schedule[0].off: "25:00" is not a time of day; valid: \#(PowerSchedule.validTime)"#,
                #"/etc/kiosk/kiosk.toml:4:6: power.schedule[0].on: "7" is not a time of day; valid: \#(PowerSchedule.validTime)"#,
                #"/etc/kiosk/kiosk.toml:5:1: power.schedule[0]: unknown key "colour"; valid: days, off, on, screens"#,
            ])
        #expect(messages("[[power.schedule]]\ndays = \"daily\"\noff = \"08:00\"\non = \"08:00\"\n").count == 1)
        #expect(
            messages("[[power.schedule]]\ndays = \"daily\"\noff = \"08:00\"\non = \"09:00\"\nscreens = [\"hdmi1\"]\n") == [
                #"/etc/kiosk/kiosk.toml:5:12: power.schedule[0].screens[0]: "hdmi1" is not a connector name; did you mean "HDMI-A-1"?; valid: a list of connector names, e.g. ["HDMI-A-1"]"#
            ])
    }

    /// `[screens.NAME] idle-timeout`: a screen's own, found like its other settings (connector name or a
    /// label matched by EDID), nil where no section sets one (the global one applies).
    @Test func aScreensOwnIdleTimeout() throws {
        let parsed = try configuration(
            """
            idle-timeout = 600
            [screens.DSI-1]
            idle-timeout = 30
            [screens.lobby]
            edid = { make = "SAM" }
            idle-timeout = 0
            """)
        #expect(parsed.idleTimeoutSeconds == 600)
        #expect(parsed.screen(connector: "DSI-1").idleTimeoutSeconds == 30)
        #expect(parsed.screen(connector: "HDMI-A-1").idleTimeoutSeconds == nil)
        #expect(parsed.screen(connector: "HDMI-A-1", edid: ScreenConfiguration.EDIDMatch(make: "SAM")).idleTimeoutSeconds == 0)
        let valid = "0 to 604800 (seconds; 0: never on this screen)"
        #expect(
            messages("[screens.DSI-1]\nidle-timeout = -5\n[screens.DP-1]\nidle-timeout = \"5m\"") == [
                "/etc/kiosk/kiosk.toml:2:16: screens.DSI-1.idle-timeout: -5 is out of range; valid: \(valid)",
                "/etc/kiosk/kiosk.toml:4:16: screens.DP-1.idle-timeout must be an integer, not a string; valid: \(valid)",
            ])
    }
}
