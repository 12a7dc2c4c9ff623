import Graphics
import Testing

@Test func graphicsModuleLinks() { #expect(Point.zero == Point(x: 0, y: 0)) }
