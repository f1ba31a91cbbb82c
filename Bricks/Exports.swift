// Bricks are written against the core's public API only, as a user's own bricks are.
@_exported public import BrickCore
