import Glibc
import ImageDecoding
import ImageScenes

// `ImagesProfile check`: the photo's decode has libjpeg's pixels (djpeg -scale 3/8) and its peak memory
// is the bitmap plus at most 10 %. `ImagesProfile decode N` / `baseline N`: N decodes, for callgrind.

/// The process's peak resident set (VmHWM), in KiB, after `clear_refs` reset it to the current one.
func peakResidentKiB() -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmHWM:") { return Int(text.split(separator: " ").dropFirst().first ?? "") ?? -1 }
    }
    return -1
}

func resetPeak() {
    // Writing 5 to clear_refs resets VmHWM to the current resident set (Linux 4.0).
    guard let file = fopen("/proc/self/clear_refs", "w") else { return }
    fputs("5", file)
    fclose(file)
}

let arguments = CommandLine.arguments.dropFirst()
let scene = PhotoScene()
switch arguments.first {
case "decode", "baseline":
    let count = Int(arguments.dropFirst().first ?? "") ?? 10
    var total = 0
    for _ in 0..<count { total &+= arguments.first == "decode" ? scene.decode() : scene.baseline() }
    print(total)
case "check":
    let result = scene.compare()
    print("pixels: ours \(result.ours), libjpeg \(result.baseline), largest channel difference \(result.difference)")
    // Peak memory of one decode, the JPEG's bytes already in memory (both sides hold them).
    resetPeak()
    let before = peakResidentKiB()
    let image = try ImageDecoder.decode(bytes: scene.jpeg, name: "photo.jpg", options: DecodingOptions(fitting: PhotoScene.shown))
    let peak = peakResidentKiB() - before
    let bitmapKiB = image.bitmap.stride * image.bitmap.height / 1024
    let ratio = Double(peak) / Double(bitmapKiB)
    print("peak memory of a decode: \(peak) KiB over the resident set before, the bitmap \(bitmapKiB) KiB: \(ratio)x")
    let ok = result.difference == 0 && result.ours == result.baseline && ratio <= 1.1
    print(ok ? "check passed" : "check FAILED")
    exit(ok ? 0 : 1)
default:
    print("usage: ImagesProfile check | decode N | baseline N")
    exit(2)
}
