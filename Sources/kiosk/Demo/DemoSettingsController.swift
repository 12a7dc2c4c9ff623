import KioskKit

/// The demo's settings, pushed from the main screen's Settings button: a column of the standard controls
/// (a switch, a slider, a stepper, a segmented control, a progress view) beside a language picker and a
/// countdown picker, all placed by constraints from their intrinsic sizes. `[app-settings] settings-volume`
/// and `settings-language` start the slider and the picker where a test's drags and flings left them, so a
/// headless rendering can be compared with a display's.
@MainActor
final class DemoSettingsController: ViewController, PickerViewDataSource, PickerViewDelegate {
    let wifi = Switch()
    let volume = Slider()
    let copies = Stepper()
    let copiesLabel = Label(text: "1 copy", font: .system(size: 17))
    let size = SegmentedControl(titles: ["Small", "Medium", "Large"])
    let progress = ProgressView()
    let language = PickerView()
    let screenOff = DatePicker()

    /// The languages the picker lists, each in its own script.
    static let languages = [
        "English", "Deutsch", "Français", "Español", "Italiano", "Nederlands", "Svenska", "Polski", "Türkçe", "Ελληνικά",
        "Русский", "العربية", "עברית", "中文", "日本語",
    ]

    private var beside: [LayoutConstraint] = []
    private var below: [LayoutConstraint] = []
    /// Which of the two arrangements is active (nil: neither yet).
    private var isWide: Bool?

    /// The language's row at the start.
    private let initialLanguage: Int

    init(volume: Float, language: Int) {
        initialLanguage = language
        super.init()
        title = "Settings"
        self.volume.value = volume
    }

    override func loadView() {
        let root = DemoContentView()
        root.identifier = "settings"
        root.backgroundColor = DemoContentController.background
        root.isOpaque = true
        configureControls()
        let rows = StackView(arrangedSubviews: [
            Self.row("Wi-Fi", wifi), Self.row("Volume", volume), Self.row("Copies", copies, copiesLabel),
            Self.row("Size", size), Self.row("Download", progress),
        ])
        rows.axis = .vertical
        rows.spacing = 18
        let pickers = StackView(arrangedSubviews: [language, screenOff])
        pickers.axis = .vertical
        pickers.spacing = 12
        // Each as tall as UIKit's picker where there is room, both shorter alike on a short panel.
        pickers.distribution = .fillEqually
        for view in [rows, pickers] as [View] {
            view.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(view)
        }
        let safe = root.safeAreaLayoutGuide
        LayoutConstraint.activate([
            rows.topAnchor.constraint(equalTo: safe.topAnchor, constant: 24),
            rows.leadingAnchor.constraint(equalTo: safe.leadingAnchor, constant: 24),
            volume.widthAnchor.constraint(equalToConstant: 220),
            progress.widthAnchor.constraint(equalToConstant: 220),
            pickers.trailingAnchor.constraint(equalTo: safe.trailingAnchor, constant: -24),
            pickers.bottomAnchor.constraint(lessThanOrEqualTo: safe.bottomAnchor, constant: -12),
            language.heightAnchor.constraint(lessThanOrEqualToConstant: 216),
        ])
        // Landscape: the pickers beside the controls; portrait: below them, across the screen.
        beside = [
            rows.trailingAnchor.constraint(equalTo: pickers.leadingAnchor, constant: -24),
            pickers.topAnchor.constraint(equalTo: safe.topAnchor, constant: 12),
        ]
        below = [
            rows.trailingAnchor.constraint(lessThanOrEqualTo: safe.trailingAnchor, constant: -24),
            pickers.topAnchor.constraint(equalTo: rows.bottomAnchor, constant: 24),
            pickers.leadingAnchor.constraint(equalTo: safe.leadingAnchor, constant: 24),
        ]
        root.didLayout = { [weak self, weak root] in
            guard let self, let root, root.bounds.width > 0 else { return }
            let wide = root.bounds.width > root.bounds.height
            guard wide != self.isWide else { return }
            self.isWide = wide
            LayoutConstraint.deactivate(wide ? self.below : self.beside)
            LayoutConstraint.activate(wide ? self.beside : self.below)
        }
        view = root
    }

    /// A row: the setting's name, then its control (and what it shows beside it).
    private static func row(_ name: String, _ views: View...) -> StackView {
        let label = Label(text: name, font: .system(size: 17))
        label.widthAnchor.constraint(equalToConstant: 100).isActive = true
        let row = StackView(arrangedSubviews: [label] + views)
        row.spacing = 16
        row.alignment = .center
        return row
    }

    private func configureControls() {
        wifi.identifier = "settings-wifi"
        wifi.isOn = true
        volume.identifier = "settings-volume"
        copies.identifier = "settings-copies"
        copies.minimumValue = 1
        copies.maximumValue = 9
        copies.addAction(for: .valueChanged) { [weak self] control in
            let count = Int((control as! Stepper).value)
            self?.copiesLabel.text = count == 1 ? "1 copy" : "\(count) copies"
        }
        size.identifier = "settings-size"
        size.selectedSegmentIndex = 1
        progress.identifier = "settings-progress"
        progress.progress = 0.6
        language.identifier = "settings-language"
        language.dataSource = self
        language.delegate = self
        language.selectRow(initialLanguage, inComponent: 0, animated: false)
        screenOff.identifier = "settings-screen-off"
        screenOff.datePickerMode = .countDownTimer
        screenOff.countDownDuration = 15 * 60
        screenOff.minuteInterval = 5
    }

    /// The settings have the navigation bar, with a back button to the main screen.
    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        navigationController?.setNavigationBarHidden(false, animated: animated)
    }

    // MARK: The language picker

    func numberOfComponents(in pickerView: PickerView) -> Int { 1 }
    func pickerView(_ pickerView: PickerView, numberOfRowsInComponent component: Int) -> Int { Self.languages.count }
    func pickerView(_ pickerView: PickerView, titleForRow row: Int, forComponent component: Int) -> String? { Self.languages[row] }
}
