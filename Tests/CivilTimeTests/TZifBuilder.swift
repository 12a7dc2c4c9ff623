/// Writes TZif files (RFC 8536) from parts, for tests of the parser on files no system ships: version 1,
/// a bad footer, leap seconds, each part cut short.
struct TZifBuilder {
    struct LocalType {
        var offset: Int32
        var isDaylight: Bool
        var abbreviation: String
    }

    /// `0` for version 1 (no 64-bit block, no footer), or the ASCII digit.
    var version: UInt8 = UInt8(ascii: "2")
    var transitions: [(time: Int64, type: UInt8)] = []
    var types: [LocalType] = [LocalType(offset: 0, isDaylight: false, abbreviation: "UTC")]
    var footer = ""
    var leapSeconds: [(time: Int64, correction: Int32)] = []
    /// Writes a standard/wall and a UT/local indicator per type when set.
    var indicators = false

    /// The file's parts in order, to cut a file inside a chosen one.
    struct Layout {
        var header = 0..<0
        var version1Block = 0..<0
        var version2Header = 0..<0
        var transitionTimes = 0..<0
        var transitionTypes = 0..<0
        var localTimeTypes = 0..<0
        var designations = 0..<0
        var leapSecondRecords = 0..<0
        var indicators = 0..<0
        var footer = 0..<0
    }

    func bytes() -> [UInt8] { build().bytes }

    func layout() -> Layout { build().layout }

    private func build() -> (bytes: [UInt8], layout: Layout) {
        var layout = Layout()
        var out: [UInt8] = []
        func mark(_ body: () -> Void) -> Range<Int> {
            let start = out.count
            body()
            return start..<out.count
        }
        var designations: [UInt8] = []
        var designationIndex: [Int] = []
        for type in types {
            designationIndex.append(designations.count)
            designations += Array(type.abbreviation.utf8) + [0]
        }
        let indicatorCount = indicators ? types.count : 0

        func header() {
            out += Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15)
            for count in [indicatorCount, indicatorCount, leapSeconds.count, transitions.count, types.count, designations.count] {
                append(UInt64(count), size: 4, to: &out)
            }
        }
        func block(timeSize: Int, record: Bool) {
            let times = mark { for transition in transitions { append(UInt64(bitPattern: transition.time), size: timeSize, to: &out) } }
            let typeIndices = mark { out += transitions.map(\.type) }
            let records = mark {
                for (index, type) in types.enumerated() {
                    append(UInt64(UInt32(bitPattern: type.offset)), size: 4, to: &out)
                    out += [type.isDaylight ? 1 : 0, UInt8(designationIndex[index])]
                }
            }
            let names = mark { out += designations }
            let leaps = mark {
                for leap in leapSeconds {
                    append(UInt64(bitPattern: leap.time), size: timeSize, to: &out)
                    append(UInt64(UInt32(bitPattern: leap.correction)), size: 4, to: &out)
                }
            }
            let flags = mark { out += [UInt8](repeating: 0, count: indicatorCount * 2) }
            if record {
                layout.transitionTimes = times
                layout.transitionTypes = typeIndices
                layout.localTimeTypes = records
                layout.designations = names
                layout.leapSecondRecords = leaps
                layout.indicators = flags
            }
        }

        layout.header = mark { header() }
        if version == 0 {
            block(timeSize: 4, record: true)
            return (out, layout)
        }
        layout.version1Block = mark { block(timeSize: 4, record: false) }
        layout.version2Header = mark { header() }
        block(timeSize: 8, record: true)
        layout.footer = mark { out += [UInt8(ascii: "\n")] + Array(footer.utf8) + [UInt8(ascii: "\n")] }
        return (out, layout)
    }
}

/// The low `size` bytes of a number, most significant first.
private func append(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
    for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
        bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
}

/// A small deterministic generator (SplitMix64), so that a failing fuzz case can be replayed.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func integer(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
