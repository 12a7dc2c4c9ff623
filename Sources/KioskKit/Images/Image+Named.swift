import ImageDecoding

/// `Image(named:)`'s lookup and cache.
extension Image {
    /// Images read by name, and names that failed (logged once, then nil without a word, as the file
    /// stays what it was until the folders change).
    @MainActor static var namedCache: [String: Image?] = [:]

    /// The image `name` stands for in `folders`, read once and kept.
    @MainActor static func named(_ name: String, in folders: [String]) -> Image? {
        if let cached = namedCache[name] { return cached }
        var tried: [String] = []
        let image: Image?
        if let path = ImageResources.path(named: name, in: folders, tried: &tried) {
            do {
                image = Image(contents: try ImageDecoder.read(contentsOfFile: path), path: path)
            } catch {
                Log.app.error("Image(named: \"\(name)\"): \(error)")
                image = nil
            }
        } else {
            let looked = tried.isEmpty ? "no resource folder (Image.resourceFolders is empty)" : tried.joined(separator: ", ")
            Log.app.error("Image(named: \"\(name)\"): no such image; looked for \(looked)")
            image = nil
        }
        namedCache[name] = image
        return image
    }
}
