import Geometry
