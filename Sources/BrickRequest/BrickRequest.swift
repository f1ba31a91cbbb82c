// `import BrickRequest` gives the core and the stock bricks.
@_exported public import BrickCore
@_exported public import Bricks
