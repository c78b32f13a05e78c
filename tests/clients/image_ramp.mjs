// The picture the image edit of the client drivers paints (blender_gltf.py paints the same one):
// a ramp that differs along both axes in colour and alpha, so a flip or a lost channel shows.
// Texel (x, y), row 0 at the top: R·(x+1)/w, G·(y+1)/h, B, A·(x+y+1)/(w+h−1), as 8-bit RGBA.
export function imageRamp(width, height, [r, g, b, a]) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      data.set([r * (x + 1) / width, g * (y + 1) / height, b, a * (x + y + 1) / (width + height - 1)]
        .map((v) => Math.round(255 * v)), 4 * (y * width + x));
  return data;
}
