#!/bin/sh
# Draws the unified manifest's two app icons once (ImageMagick 6 `convert`); the PNGs are committed
# in src/hosts/excel/public/assets and the build copies them as they are. Sizes and kinds as the
# manifest schema's `icons` describe them: `color` a full-colour 192x192 PNG, `outline` a 32x32 PNG
# drawn in white on a transparent background.
set -eu
out="$(dirname "$0")/../../src/hosts/excel/public/assets"
# The same picture as icon-16..80.png: three rising white bars on the add-in's blue.
convert -size 192x192 xc:none -fill '#0F6CBD' -draw 'roundrectangle 8,8 183,183 28,28' \
  -fill white -draw 'rectangle 50,112 74,150' -draw 'rectangle 84,80 108,150' -draw 'rectangle 118,44 142,150' \
  -strip "PNG32:$out/icon-color-192.png"
convert -size 32x32 xc:none -fill none -stroke white -strokewidth 2 -draw 'roundrectangle 2,2 29,29 5,5' \
  -stroke none -fill white -draw 'rectangle 8,18 11,24' -draw 'rectangle 14,13 17,24' -draw 'rectangle 20,8 23,24' \
  -strip "PNG32:$out/icon-outline-32.png"
