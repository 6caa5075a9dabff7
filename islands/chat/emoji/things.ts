/** Objects, hearts and symbols for the emoji picker, one `emoji english|português|español` a line (see emoji-data.ts). */
export const OBJECTS = `
📱 mobile phone cell|celular telefone|móvil celular
💻 laptop computer|notebook computador|portátil computadora
🖥️ desktop computer|computador|computadora
⌨️ keyboard|teclado|teclado
🖨️ printer|impressora|impresora
🖱️ mouse computer|mouse|ratón
💾 floppy save|disquete salvar|disquete guardar
📷 camera photo|câmera foto|cámara foto
📸 camera flash|foto flash|foto flash
🎥 movie camera video|câmera de vídeo|cámara de video
📺 television tv|televisão|televisión
📞 telephone call|telefone ligação|teléfono llamada
☎️ phone|telefone|teléfono
📠 fax|fax|fax
🔋 battery|bateria|batería
🔌 plug|tomada|enchufe
💡 light bulb idea|lâmpada ideia|bombilla idea
🔦 flashlight|lanterna|linterna
🕯️ candle|vela|vela
💸 money flying|dinheiro voando|dinero volando
💵 dollar banknote|nota dólar|billete dólar
💰 money bag|saco de dinheiro|bolsa de dinero
💳 credit card|cartão de crédito|tarjeta de crédito
🧾 receipt invoice|recibo nota fiscal|recibo factura
💎 gem diamond|diamante joia|diamante joya
⚖️ balance scale justice|balança justiça|balanza justicia
🔧 wrench tool|chave inglesa ferramenta|llave herramienta
🔨 hammer|martelo|martillo
🛠️ tools|ferramentas|herramientas
⚙️ gear settings|engrenagem configuração|engranaje configuración
🔩 nut bolt|porca parafuso|tuerca tornillo
🧰 toolbox|caixa de ferramentas|caja de herramientas
🧲 magnet|ímã|imán
🔑 key|chave|llave
🗝️ old key|chave antiga|llave antigua
🔒 locked|cadeado fechado|candado cerrado
🔓 unlocked|cadeado aberto|candado abierto
🚪 door|porta|puerta
🛒 shopping cart|carrinho de compras|carrito de compras
🛍️ shopping bags|sacolas compras|bolsas compras
📦 package box|pacote caixa encomenda|paquete caja
📫 mailbox|caixa de correio|buzón
✉️ envelope letter|envelope carta|sobre carta
📧 email|e-mail|correo electrónico
📨 incoming envelope|mensagem recebida|mensaje entrante
📝 memo note|anotação nota|nota memo
✏️ pencil|lápis|lápiz
🖊️ pen|caneta|bolígrafo
📎 paperclip attach|clipe anexo|clip adjunto
📌 pushpin|tachinha|chincheta
✂️ scissors|tesoura|tijeras
📄 document page|documento página|documento página
📑 bookmark tabs|marcadores|marcadores
📊 bar chart|gráfico de barras|gráfico de barras
📈 chart increasing|gráfico subindo|gráfico subiendo
📉 chart decreasing|gráfico descendo|gráfico bajando
📋 clipboard|prancheta|portapapeles
📁 folder|pasta|carpeta
📅 calendar date|calendário data|calendario fecha
📆 tear-off calendar|calendário|calendario
🗓️ spiral calendar|agenda|agenda
📚 books|livros|libros
📖 open book|livro aberto|libro abierto
🔖 bookmark|marcador|marcapáginas
🏷️ label tag|etiqueta|etiqueta
⏰ alarm clock|despertador|despertador
⏳ hourglass wait|ampulheta espera|reloj de arena espera
⌛ hourglass done|ampulheta|reloj de arena
⏱️ stopwatch|cronômetro|cronómetro
🕐 clock time|relógio hora|reloj hora
🔔 bell notification|sino notificação|campana notificación
🔕 bell off mute|sino desligado|campana silenciada
📢 loudspeaker announcement|alto-falante anúncio|altavoz anuncio
📣 megaphone|megafone|megáfono
🔍 search magnifying|lupa buscar|lupa buscar
💊 pill medicine|remédio comprimido|pastilla medicina
💉 syringe vaccine|seringa vacina|jeringa vacuna
🩺 stethoscope|estetoscópio|estetoscopio
🧴 lotion bottle|loção frasco|loción frasco
🧹 broom clean|vassoura limpar|escoba limpiar
🧺 basket|cesta|cesta
🧸 teddy bear|ursinho de pelúcia|osito de peluche
👕 t-shirt|camiseta|camiseta
👗 dress|vestido|vestido
👟 sneaker shoe|tênis sapato|zapatilla zapato
👜 handbag|bolsa|bolso
👓 glasses|óculos|gafas
⌚ watch|relógio de pulso|reloj de pulsera
💍 ring|anel|anillo
`;

export const SYMBOLS = `
❤️ red heart love|coração vermelho amor|corazón rojo amor
🧡 orange heart|coração laranja|corazón naranja
💛 yellow heart|coração amarelo|corazón amarillo
💚 green heart|coração verde|corazón verde
💙 blue heart|coração azul|corazón azul
💜 purple heart|coração roxo|corazón morado
🖤 black heart|coração preto|corazón negro
🤍 white heart|coração branco|corazón blanco
🤎 brown heart|coração marrom|corazón marrón
💔 broken heart|coração partido|corazón roto
❣️ heart exclamation|coração exclamação|corazón exclamación
💕 two hearts|dois corações|dos corazones
💞 revolving hearts|corações girando|corazones girando
💓 beating heart|coração batendo|corazón latiendo
💗 growing heart|coração crescendo|corazón creciendo
💖 sparkling heart|coração brilhante|corazón brillante
💘 heart arrow cupid|coração flechado cupido|corazón flechado cupido
💝 heart ribbon gift|coração com laço|corazón con lazo
💯 hundred points perfect|cem pontos perfeito|cien puntos perfecto
💢 anger symbol|símbolo de raiva|símbolo de enojo
💥 collision boom|explosão|explosión
💫 dizzy star|estrela tonta|estrella mareada
💦 sweat droplets|gotas de suor|gotas de sudor
💨 dash fast|correndo rápido vento|rápido viento
💬 speech balloon chat|balão de fala conversa|globo de diálogo chat
💭 thought balloon|balão de pensamento|globo de pensamiento
🗯️ anger bubble|balão de raiva|globo de enojo
💤 zzz sleep|sono zzz|sueño zzz
✅ check mark done yes|feito certo confirmado|hecho correcto confirmado
☑️ check box|caixa marcada|casilla marcada
✔️ check|certo visto|visto
❌ cross mark no wrong|errado não x|equis no incorrecto
❎ cross button|botão x|botón x
➕ plus add|mais adicionar|más añadir
➖ minus|menos|menos
➗ divide|dividir|dividir
✖️ multiply|multiplicar|multiplicar
❓ question mark|interrogação pergunta|interrogación pregunta
❔ white question|pergunta|pregunta
❗ exclamation important|exclamação importante|exclamación importante
‼️ double exclamation|dupla exclamação|doble exclamación
⁉️ exclamation question|exclamação interrogação|exclamación interrogación
⚠️ warning attention|atenção aviso|advertencia atención
🚫 prohibited forbidden|proibido|prohibido
⛔ no entry|entrada proibida|prohibido el paso
🔞 under eighteen|menores de dezoito|menores de dieciocho
♻️ recycle|reciclar|reciclar
🆗 ok button|botão ok|botón ok
🆕 new|novo|nuevo
🆓 free|grátis|gratis
🆙 up|para cima|arriba
🆒 cool|legal|genial
🔝 top|topo|arriba
🔜 soon|em breve|pronto
ℹ️ information|informação|información
🔴 red circle|círculo vermelho|círculo rojo
🟠 orange circle|círculo laranja|círculo naranja
🟡 yellow circle|círculo amarelo|círculo amarillo
🟢 green circle|círculo verde|círculo verde
🔵 blue circle|círculo azul|círculo azul
⚫ black circle|círculo preto|círculo negro
⚪ white circle|círculo branco|círculo blanco
🔶 orange diamond|losango laranja|rombo naranja
🔷 blue diamond|losango azul|rombo azul
▶️ play|reproduzir|reproducir
⏸️ pause|pausa|pausa
⏹️ stop|parar|detener
⏩ fast forward|avançar|avanzar
⏪ rewind|voltar|retroceder
🔁 repeat|repetir|repetir
🔄 arrows refresh|atualizar setas|actualizar flechas
➡️ right arrow|seta direita|flecha derecha
⬅️ left arrow|seta esquerda|flecha izquierda
⬆️ up arrow|seta para cima|flecha arriba
⬇️ down arrow|seta para baixo|flecha abajo
↩️ return arrow reply|seta de retorno responder|flecha de retorno responder
🔗 link|link corrente|enlace
©️ copyright|direitos autorais|derechos de autor
®️ registered|marca registrada|marca registrada
™️ trade mark|marca comercial|marca comercial
#️⃣ number sign hash|cerquilha jogo da velha|almohadilla numeral
1️⃣ one|um|uno
2️⃣ two|dois|dos
3️⃣ three|três|tres
4️⃣ four|quatro|cuatro
5️⃣ five|cinco|cinco
6️⃣ six|seis|seis
7️⃣ seven|sete|siete
8️⃣ eight|oito|ocho
9️⃣ nine|nove|nueve
0️⃣ zero|zero|cero
🔟 ten|dez|diez
🏁 checkered flag finish|bandeira quadriculada chegada|bandera a cuadros meta
🚩 red flag|bandeira vermelha|bandera roja
🏳️ white flag|bandeira branca|bandera blanca
🏳️‍🌈 rainbow flag|bandeira arco-íris|bandera arcoíris
🇧🇷 brazil flag|bandeira brasil|bandera brasil
🇵🇹 portugal flag|bandeira portugal|bandera portugal
🇪🇸 spain flag|bandeira espanha|bandera españa
🇺🇸 united states flag|bandeira estados unidos|bandera estados unidos
🇦🇷 argentina flag|bandeira argentina|bandera argentina
🇲🇽 mexico flag|bandeira méxico|bandera méxico
`;
